// Lexical scoring lives in @memplane/core/rules, shared with @memplane/engine.
export { distinctTerms, rankByBm25, tokenize, type LexicalDocument, type LexicalMatch } from '@memplane/core/rules';
