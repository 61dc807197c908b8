export { MemoryError, type MemoryErrorCode, type MemoryErrorOptions } from './memory-error';
export {
  isRetryableStatus,
  MemoryApiCallError,
  MemoryRateLimitedError,
  type MemoryApiCallErrorOptions,
} from './memory-api-call-error';
export { MemoryNotFoundError } from './memory-not-found-error';
export { MemoryScopeViolationError } from './memory-scope-violation-error';
export {
  InvalidCursorError,
  MemoryConfigurationError,
  MemoryConflictError,
  MemoryInvalidResponseError,
  MemoryTimeoutError,
  type InvalidCursorReason,
} from './memory-simple-errors';
export { MemoryValidationError, type MemoryValidationIssue } from './memory-validation-error';
export { UnsupportedCapabilityError } from './unsupported-capability-error';
