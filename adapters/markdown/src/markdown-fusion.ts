// Rank fusion lives in @memplane/core/rules, shared with @memplane/engine.
export { fuseByReciprocalRank, fuseByWeight, reciprocalRankConstant, type RankedEntry } from '@memplane/core/rules';
