export { createMemoryService, type MemoryService, type MemoryServiceProviders } from './service/create-memory-service';
export { defaultOperationLogBatchSize, defaultRetentionFloorDays, type MemoryHydrationLimits, type MemoryServiceSettings } from './service/memory-service-settings';
export type { MemoryServiceMetrics } from './service/service-internals';

export { parseActor, type MemoryActor, type MemoryActorKind, type MemoryActorReference } from './actor/memory-actor';
export type { MemoryCallContext } from './runtime/call-context';
export {
  defaultAuthorize,
  type MemoryAuthorize,
  type MemoryPolicyDecision,
  type MemoryServiceOperation,
} from './policy/memory-policy';
export { MemoryAccessDeniedError } from './errors/memory-access-denied-error';
export { MemoryBindingNotFoundError } from './errors/memory-binding-not-found-error';
export { MemoryQuotaExceededError, type MemoryQuotaKind } from './errors/memory-quota-exceeded-error';

export {
  type MemoryBinding,
  type MemoryBindingQuota,
  type MemoryBindingHookSettings,
  type MemoryBindingTarget,
  type MemoryBindingTargetType,
  type ResolvedMemoryBinding,
} from './bindings/memory-binding';
export type { SecretEnvironmentAllowList, SecretResolver } from './bindings/secret-reference';
export { MemoryBindingRefusedError, type MemoryBindingRefusalRule } from './errors/memory-binding-refused-error';
export { MemoryMissingPackageError } from './errors/memory-missing-package-error';
export type { MemoryDestinationPolicy } from './security/provider-destinations';
export { redactedText } from './security/secret-redactor';
export type { MemoryProviderRegistration } from './providers/register-provider';
export type { MemoryControlPlane } from './control/memory-control-plane';
export type { CreateMemoryBindingInput, MemoryBindingTargetInput, UpdateMemoryBindingInput } from './control/binding-input';

export type { MemoryProviderConfigDescription, MemoryProviderDescription, MemoryProviderOrigin } from './providers/memory-provider-description';
export { loadProviderPackage, type LoadProviderPackageOptions } from './providers/load-provider-package';

export type { MemoryRuntime } from './runtime/memory-runtime';
export type { MemoryServiceResult } from './runtime/record-operations';
export type { MemoryServiceForgetResult } from './runtime/record-handle-operations';
export type { MemoryExtractionRefresh } from './runtime/job-operations';
export type { MemoryOperationReceipt } from './runtime/run-operation';
export type { MemoryRefusableOperation, ServiceRefusedCallRequest } from './runtime/refused-call';
export type {
  MemoryServiceScope,
  MemoryServiceSourceRef,
  ServiceCaptureRequest,
  ServiceCorrectRequest,
  ServiceForgetRequest,
  ServiceGetRequest,
  ServiceJobListRequest,
  ServiceListRequest,
  ServiceProfileRequest,
  ServiceProviderJobListRequest,
  ServiceQueryRequest,
  ServiceRecordWriteRequest,
  ServiceRefreshJobsRequest,
  ServiceRetryJobRequest,
} from './runtime/runtime-requests';
export type { MemoryCostEvent, MemoryCostEventRecorder } from './runtime/usage-attribution';

export { memoryHookKinds, type MemoryHooks } from './hooks/memory-hooks';
export type { MemoryHookDelivery, MemoryHookReport, MemoryHookSubscriber } from './hooks/hook-firing';
export type { MemoryCaptureHookReport } from './hooks/capture-hooks';
export type { MemoryQueuedHook, MemoryQueueableHookInputs, MemoryQueueableHookKind } from './hooks/enqueue-hook';
export type { PreRunHydration } from './hooks/pre-run-hydrate';
export type {
  IssueCommentCaptureInput,
  IssueDocumentCaptureInput,
  ManualCaptureInput,
  PostRunCaptureInput,
  PreRunHydrateInput,
} from './hooks/hook-inputs';

export {
  createMemoryTools,
  type MemoryToolsOptions,
  type MemoryToolContext,
  type MemoryToolDefinition,
  type MemoryToolHost,
  type MemoryToolResult,
} from './tools/memory-tools';
export { toToolRecordId } from './tools/memory-tool-schemas';
export { describeProfile } from './tools/memory-capability-tools';

export type {
  MemoryBindingOperationCounts,
  MemoryExplorer,
  MemoryHookDeliveryQuery,
  MemoryOperationQuery,
} from './explorer/memory-explorer';
export type { MemoryExplorerPage } from './explorer/explorer-pages';
export type { MemoryBindingMetrics, MemoryMetricsTotals, MemoryOperationMetrics, MemoryRate } from './explorer/operation-metrics';

export type {
  MemoryCostEventQuery,
  MemoryCostLedger,
  MemoryFinanceEventInput,
  MemoryFinanceEventQuery,
} from './costs/memory-cost-ledger';
export type { MemoryCostGroup, MemoryCostSummary, MemoryCostSummaryRequest, MemoryCostTotals } from './costs/summarize-costs';
export type { MemoryCompanyPrune, MemoryPruneReport, MemoryPruneRequest } from './retention/prune-operation-log';

export type { MemoryJobHandler, MemoryJobKind, MemoryJobQueue, MemoryJobRequest, MemoryQueuedJob } from './queue/memory-job-queue';
export { createInProcessJobQueue, type InProcessJobQueueSettings } from './queue/in-process-job-queue';
export type { MemoryServiceWorker, MemoryServiceWorkerOptions } from './service/memory-service-worker';

export { defaultProviderDeadlineMs, type MemoryProviderDeadlines } from './runtime/provider-deadline';
export { type MemoryAgentIdentityPolicy, type MemoryAgentReadReach } from './runtime/agent-identity';
// The entries a service user reads through the explorer and the cost ledger. The store
// interface, its method groups and the rest of its records are `@memplane/service/store`.
export type { MemoryCostEventEntry, MemoryCostGrouping, MemoryFinanceEventEntry, MemoryFinanceEventKind } from './store/memory-accounting-records';
export type {
  MemoryActivityAction,
  MemoryActivityEntry,
  MemoryActivitySubjectType,
  MemoryExtractionJobEntry,
  MemoryHookDeliveryEntry,
  MemoryHookDeliveryStatus,
  MemoryOperationEntry,
  MemoryOperationStatus,
  MemoryOperationType,
} from './store/memory-service-records';
export { serviceRequestSchemas } from './service-request-schemas';

export { VERSION } from './version';
