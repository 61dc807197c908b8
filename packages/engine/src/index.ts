export type {
  EngineStore,
  EngineStoreOpenSpec,
  EngineStoreSession,
  ItemFilter,
  ItemKeyset,
  LexicalHit,
  LexicalSearchRequest,
} from './store/engine-store';
export type {
  CategoryRow,
  EngineFlow,
  IntentionRow,
  ItemEvidence,
  ItemKind,
  ItemPatch,
  ItemRow,
  ItemStatus,
  MediaSpan,
  PiiRisk,
  PipelineRevisionRow,
  ResourceRow,
  RunLlmUsage,
  RunLogRow,
  RunStepRecord,
  ScopeRange,
  ScopeValues,
  SegmentRow,
  ServiceMetaRow,
} from './store/engine-store-rows';
export type { VectorEntry, VectorHit, VectorIndex, VectorSearchRequest } from './store/vector-index';
export { createMemoryEngine, engineDdlVersion } from './engine/create-memory-engine';
export type { EngineExtractionSettings, MemoryEngineSettings } from './engine/engine-settings';
export type { CategoryReadOptions, CategoryView, ItemCorrection, ItemInput, MemoryEngine, RunReference } from './engine/memory-engine';
export type { EngineServices } from './engine/engine-services';
export { defaultCategories, type CategoryDefinition } from './engine/category-definitions';
export type { MemorizeInput } from './flows/memorize-input';
export type { MemorizeResult } from './flows/memorize-persist';
export type { MemorizeWarning, UnprocessedReason } from './flows/multimodal-preprocess';
export { allowedMediaTypes, maxResourceBytes, type MediaKind } from './flows/multimodal-input';
export type { CategorySummaryDiff } from './flows/category-summaries';
export type { RetrieveOptions } from './flows/retrieve-options';
export type { RetrieveResult, RetrievedItem } from './flows/retrieve-recall';
export type { RetrievalLayer } from './flows/retrieve-routing';
export type { EvolveDiff, EvolveOptions } from './flows/evolve-steps';
export type { PipelineState, PipelineStep, StepCapability, StepConfig, StepContext, StepRole } from './pipeline/pipeline-step';
export type { LlmProfile, LlmProfiles, MediaInputKind } from './profiles/llm-profiles';
export type { EngineRunner, PipelineRun, PipelineRunOutcome, ResolvedRun, ResolvedStep, RunResolver, RunToResolve } from './runner/engine-runner';
export { createSyncRunner } from './runner/sync-runner';
export { ANY, type ScopeFieldSelector, type ScopeSelector } from './scope/scope-selector';
export { defaultScopePolicy, type ScopePolicy } from './scope/scope-policy';
export { ScopePolicyError, type ScopePolicyRule } from './scope/scope-policy-error';
export { createInMemoryStore } from './store/memory/memory-store';
export { createBruteForceVectorIndex } from './store/bruteforce-vector-index';
export { compareByKeyset, itemPassesFilter, sameScope, scopeInRange, scopeKey } from './store/row-filters';
export { effectiveStability, taxonomyRulesVersion } from './taxonomy/item-governance';
export { createEngineAdapter, createEngineForAdapter, engineAdapterCapabilities, engineAdapterKey, engineAdapterOver, type EngineAdapterSettings } from './adapter/engine-adapter';
export { memoryScopeBoundaryFields, memoryScopeModelSchema } from './adapter/engine-adapter-scope';
