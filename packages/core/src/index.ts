export * from './memory-adapter/v1/index';
export * from './errors/index';
export { defineMemoryAdapter } from './define/define-memory-adapter';
export type { MemoryAdapterImplementation } from './define/memory-adapter-implementation';
export { memoryAdapterImplementationKey, memoryAdapterImplementationOf } from './define/memory-adapter-implementation-of';
export { dropOutOfScope, findScopeViolation } from './define/check-result-scope';
export { normalizeScope, scopeMatches } from './scope/scope-matches';
export { createCursorCodec, type CursorBinding, type CursorCodec, type CursorCodecSettings } from './cursor/cursor-codec';
export { stableStringify } from './cursor/stable-stringify';
export { fillUsage } from './usage/fill-usage';
export { measureLatency } from './usage/measure-latency';
export { parseRetryAfter } from './http/parse-retry-after';
export { createApiCallError, type FailedResponse } from './http/create-api-call-error';
export {
  callWithRetry,
  defaultRetryPolicy,
  type CallWithRetryOptions,
  type RetryPolicy,
} from './http/call-with-retry';
export { cursorSecretSchema, retryPolicyOverridesSchema } from './http/retry-policy-schema';
export type { MemoryFault, MemoryFaultInjector } from './faults/memory-fault';
export { parseInput, parseProviderResult } from './schemas/parse-with-schema';
export { handCheckedSchema } from './schemas/hand-checked-schema';
export { copyValidListRequest, copyValidQueryRequest, copyValidScope } from './schemas/request-fast-path';
export { jsonValueSchema, maximumMetadataLength, metadataSchema, storedMetadataSchema, type JsonValue } from './schemas/json-value-schema';
export { isWellFormedText } from './schemas/well-formed-text';
export { identifierSchema, memoryScopeSchema } from './schemas/scope-schema';
export {
  memoryHookContextSchema,
  memorySourceKindSchema,
  memorySourcePayloadSchema,
  memorySourceRefSchema,
} from './schemas/source-schema';
export { memoryUsageSchema, memoryWarningSchema } from './schemas/usage-schema';
export {
  maximumListLimit,
  maximumRecordsPerWrite,
  maximumRecordTextLength,
  maximumTopK,
  memoryCaptureRequestSchema,
  memoryCorrectionPatchSchema,
  memoryListRequestSchema,
  memoryQueryRequestSchema,
  memoryRecordHandleSchema,
  memoryRecordWriteRequestSchema,
} from './schemas/request-schemas';
export {
  memoryAdapterCapabilitiesSchema,
  memoryCaptureResultSchema,
  memoryContextBundleSchema,
  memoryExtractionJobSchema,
  memoryForgetResultSchema,
  memoryListPageSchema,
  memoryRecordWriteResultSchema,
  memorySnippetSchema,
} from './schemas/result-schemas';
export { VERSION } from './version';
export type {
  MemoryProviderBuildContext,
  MemoryProviderCheckContext,
  MemoryProviderDefinition,
  MemoryProviderDestination,
  SecretReference,
} from './provider/memory-provider-definition';
export { isSecretReference, secretReferenceSchema } from './provider/secret-reference';
export { defineMemoryProvider, providerIdPattern } from './provider/define-memory-provider';
export { bindingConfigSchema, type BindingConfigSchemaOptions } from './provider/binding-config-schema';
