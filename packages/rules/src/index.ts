/**
 * The memory rules every memplane engine shares: the taxonomy (11 kinds, thresholds, status
 * workflow), PII detection, the deterministic sentence classifier and its small-talk detector,
 * the roles of conversation turns, query analysis and rank fusion.
 * Published as `@memplane/rules`, apart from the contract, so the local backends apply the same
 * rules from one place and a hosted adapter installs none of them.
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
export { queryTerms, queryWords, type QueryWord } from './query-terms';
export { averageLengthOf, bm25B, bm25K1, bm25TermScore, inverseDocumentFrequency, type Bm25Corpus } from './bm25';
export { fuseByReciprocalRank, fuseByWeight, reciprocalRankConstant, type RankedEntry } from './rank-fusion';
export { classifySentence, extractionRules, noteFallback, smallTalkClassification, splitSentences, type KindRule } from './sentence-classifier';
export { isSmallTalk } from './small-talk';
export {
  assistantRoles,
  assistantTurnsSchema,
  conversationTurnsOf,
  genericRoles,
  isAssistantRole,
  speakerPrefix,
  type AssistantTurns,
  type ConversationTurn,
} from './conversation-turns';
export { distinctTerms, rankByBm25, tokenize, type LexicalDocument, type LexicalMatch } from './lexical-scoring';
export { scoreDocuments, scoreWithWindows, type LexicalPosting, type LexicalRange, type LexicalTotals, type PendingWindows, type WindowedScores } from './windowed-bm25';
export { rankCandidates, rankCandidatesAsync, type CandidateScores, type RankedCandidate, type WindowMembers } from './candidate-ranking';
export { MemoryLexicalIndex, type MemoryLexicalDocument, type MemoryLexicalFilter, type MemoryLexicalIndexOptions } from './memory-lexical-index';
export { checkSequencePosition, planWindowWrites, windowKeyOf, windowKeysCovering, windowOfKey, type SequencePosition, type WindowChange, type WindowShape, type WindowWrites } from './lexical-windows';
