import {
  createApiCallError,
  MemoryApiCallError,
  MemoryConflictError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
} from '@memplane/core';

/** What was being done when a call failed. */
export interface AgentCoreErrorContext {
  /** The AgentCore operation, such as `ListMemoryRecords`. */
  operation: string;
  /** The handle's provider record id, for calls about one record or event: a 404 then means not found. */
  resourceId?: string;
}

/** The parts of an SDK error the mapping reads. Every AWS SDK error has them. */
interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: number };
  $response?: { statusCode?: number; headers?: Record<string, string | undefined> };
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Maps whatever the SDK threw to a core error:
 * - an AgentCore error response (`x-amzn-errortype`) goes through core `createApiCallError`,
 *   so `ThrottledException` (429) becomes `MemoryRateLimitedError` with `retryAfterMs` from
 *   Retry-After, and 408/429/5xx are retryable while 400/402/403 are not;
 * - `RetryableConflictException` (409) becomes the retryable `MemoryConflictError`;
 * - `ResourceNotFoundException` (404) about one record or event becomes `MemoryNotFoundError`;
 * - a 2xx body the SDK could not parse becomes `MemoryInvalidResponseError`;
 * - a failure before any response (DNS, connection reset) becomes a retryable `MemoryApiCallError`;
 * - core errors pass through unchanged.
 */
export function toMemoryError(error: unknown, context: AgentCoreErrorContext): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  const sdkError = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const status = sdkError.$metadata?.httpStatusCode ?? sdkError.$response?.statusCode;
  if (status !== undefined && status >= 200 && status < 300) {
    return new MemoryInvalidResponseError({
      message: `AgentCore ${context.operation} answered ${status} with a body the SDK could not read: ${describe(error)}`,
      cause: error,
    });
  }
  if (status !== undefined && status >= 300) {
    const errorType = typeof sdkError.name === 'string' ? sdkError.name : 'UnknownError';
    const message = `AgentCore ${context.operation} failed with HTTP ${status} (${errorType}): ${typeof sdkError.message === 'string' ? sdkError.message : ''}`.trim();
    const apiCallError = createApiCallError({ status, headers: sdkError.$response?.headers, url: context.operation, message, cause: error });
    if (status === 404 && context.resourceId !== undefined) {
      return new MemoryNotFoundError({ resourceId: context.resourceId, cause: apiCallError });
    }
    if (status === 409) return new MemoryConflictError({ message, cause: apiCallError });
    return apiCallError;
  }
  return new MemoryApiCallError({
    message: `AgentCore ${context.operation} failed before AgentCore answered: ${describe(error)}`,
    url: context.operation,
    isRetryable: true,
    cause: error,
  });
}
