// The stopwords live in @memplane/core/rules, shared with @memplane/engine.
export { englishStopwords } from '@memplane/core/rules';
