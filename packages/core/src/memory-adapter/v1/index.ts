export { memoryOperationNames, type MemoryAdapter, type MemoryOperationName } from './memory-adapter-v1';
export type { MemoryAdapterCapabilities } from './memory-adapter-v1-capabilities';
export {
  finalExtractionJobStatuses,
  type MemoryExtractionJob,
  type MemoryExtractionJobPage,
  type MemoryExtractionJobStatus,
} from './memory-adapter-v1-extraction-job';
export type {
  MemoryContextBundle,
  MemoryListPage,
  MemoryRecordHandle,
  MemorySnippet,
} from './memory-adapter-v1-records';
export type {
  MemoryCaptureRequest,
  MemoryListRequest,
  MemoryQueryIntent,
  MemoryQueryRequest,
  MemoryRecordInput,
  MemoryRecordWriteRequest,
} from './memory-adapter-v1-requests';
export type {
  MemoryCaptureResult,
  MemoryCorrectionPatch,
  MemoryCorrectionResult,
  MemoryExplanation,
  MemoryExplanationStep,
  MemoryExtractionJobResult,
  MemoryExtractionRetryResult,
  MemoryForgetResult,
  MemoryProfile,
  MemoryRecordFailure,
  MemoryRecordWriteResult,
} from './memory-adapter-v1-results';
export { memoryScopeFields, type MemoryScope, type MemoryScopeField } from './memory-adapter-v1-scope';
export type {
  MemoryHookContext,
  MemoryHookKind,
  MemorySourceKind,
  MemorySourcePayload,
  MemorySourceRef,
} from './memory-adapter-v1-source';
export type { MemoryAttributionMode, MemoryBillingType, MemoryUsage } from './memory-adapter-v1-usage';
export type { MemoryWarning } from './memory-adapter-v1-warning';
