export type {
  EngineStore,
  EngineStoreOpenSpec,
  EngineStoreSession,
  ItemFilter,
  ItemKeyset,
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
