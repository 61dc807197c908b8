/**
 * The memory rules every memplane engine shares: the taxonomy (11 kinds, thresholds, status
 * workflow), PII detection, the deterministic sentence classifier, query analysis and rank fusion.
 * Published as `@memplane/core/rules` so `@memplane/markdown` and `@memplane/engine` apply the
 * same rules from one place.
 */
export { englishStopwords } from './english-stopwords';
export {
  approvalConfidence,
  initialStatus,
  isMemoryKind,
  kindConfidenceThresholds,
  meetsKindThreshold,
  memoryItemStatuses,
  memoryKinds,
  type MemoryItemStatus,
  type MemoryKind,
  type PiiRisk,
} from './memory-taxonomy';
export { credentialPatterns, findCredential, looksLikeCredential, type CredentialPattern } from './credential-patterns';
export { detectPii, piiRiskOf, type PiiFinding, type PiiScannedContent } from './pii-detection';
export { orExpression, queryTerms } from './query-terms';
export { fuseByReciprocalRank, fuseByWeight, reciprocalRankConstant, type RankedEntry } from './rank-fusion';
export { classifySentence, extractionRules, noteFallback, splitSentences, type KindRule } from './sentence-classifier';
export { distinctTerms, rankByBm25, tokenize, type LexicalDocument, type LexicalMatch } from './lexical-scoring';
