export { createMarkdownAdapter, type MarkdownAdapter, type MarkdownStats } from './markdown-adapter';
export { markdownAdapterSettingsSchema, type MarkdownAdapterSettings, type MarkdownExtractionSettings, type FusionMethod } from './markdown-settings';
export type { MarkdownStoreEvent } from './markdown-events';
export type { ReconcileReport } from './markdown-repository';
export type { MarkdownWatcher, MarkdownWatchOptions } from './markdown-watch';
export type { LexicalWeights } from './markdown-search';
export type { EmbeddingResult, MarkdownEmbedder } from './markdown-embedder';
export type { ExtractedItem, ExtractionInput, ExtractionOutput, ExtractionTurn, MemoryExtractor } from './markdown-extractor';
export { createRuleBasedExtractor, extractionRules, type RuleBasedExtractorOptions } from './markdown-rule-extractor';
export { createOpenAICompatibleEmbedder, type OpenAICompatibleEmbedderSettings } from './markdown-openai-embedder';
export { createOpenAICompatibleExtractor, type OpenAICompatibleExtractorSettings } from './markdown-openai-extractor';
export type { OpenAICompatibleConnection } from './markdown-openai-http';
export type { MarkdownProgress } from './markdown-repository';
export { decodePathSegment, encodePathSegment } from './markdown-paths';
export {
  approvalConfidence,
  kindConfidenceThresholds,
  memoryKinds,
  type MemoryItemStatus,
  type MemoryKind,
  type PiiRisk,
} from './markdown-taxonomy';
export { detectPii, type PiiFinding } from './markdown-pii';
export { markdownAdapterKey } from './markdown-snippet';
export { VERSION } from './version';
