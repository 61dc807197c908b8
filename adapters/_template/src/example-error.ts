import { createApiCallError, MemoryApiCallError, MemoryError, MemoryNotFoundError } from '@memplane/core';
import { ExampleApiError } from './example-client';

/** What was being done when a call failed. */
export interface ExampleErrorContext {
  /** The adapter operation, such as `list`. */
  operation: string;
  /** The handle's provider record id, for calls about one record. */
  resourceId?: string;
}

const maximumBodyLength = 2000;

/**
 * Maps whatever the SDK threw to a core error:
 * - an HTTP 404 about one record becomes `MemoryNotFoundError`;
 * - any other HTTP failure goes through core `createApiCallError`, so 429 becomes
 *   `MemoryRateLimitedError`, 408/409/429/5xx are retryable and Retry-After is honoured;
 * - a failure before any response (DNS, connection reset) becomes a retryable `MemoryApiCallError`;
 * - core errors pass through unchanged.
 */
export function toMemoryError(error: unknown, context: ExampleErrorContext): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  if (error instanceof ExampleApiError) {
    const apiCallError = createApiCallError({
      status: error.status,
      headers: error.headers,
      body: error.body.slice(0, maximumBodyLength),
      url: error.url,
      message: error.message,
      cause: error,
    });
    if (error.status === 404 && context.resourceId !== undefined) {
      return new MemoryNotFoundError({ resourceId: context.resourceId, cause: apiCallError });
    }
    return apiCallError;
  }
  return new MemoryApiCallError({
    message: `Example ${context.operation} failed before the API answered: ${
      error instanceof Error ? error.message : String(error)
    }`,
    url: context.operation,
    isRetryable: true,
    cause: error,
  });
}
