import {
  createApiCallError,
  MemoryApiCallError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
} from '@memplane/core';
import type { Mem0FailedResponse } from './mem0-client';

/** What was being done when a call failed. */
export interface Mem0ErrorContext {
  /** The adapter operation and SDK method, such as `list (getAll)`. */
  operation: string;
  /** The handle's provider record id, for calls about one memory or event. */
  resourceId?: string;
}

/** The shape of the SDK's `MemoryError`: `errorCode` is `HTTP_<status>` and the message is the response body. */
interface Mem0SdkHttpError {
  errorCode: string;
  message: string;
  debugInfo?: Partial<Mem0FailedResponse>;
}

const maximumBodyLength = 2000;

function isSdkHttpError(error: unknown): error is Mem0SdkHttpError {
  if (typeof error !== 'object' || error === null) return false;
  const { errorCode } = error as { errorCode?: unknown };
  return typeof errorCode === 'string' && /^HTTP_\d{3}$/.test(errorCode);
}

function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && (error.message === 'fetch failed' || error.cause !== undefined);
}

/**
 * Maps whatever a mem0 call threw to a core error:
 * - an HTTP failure goes through core `createApiCallError`, so 429 becomes
 *   `MemoryRateLimitedError`, 408/409/429/5xx are retryable and Retry-After (read by the
 *   adapter's client, since the SDK drops it) becomes `retryAfterMs`;
 * - 404 about one memory or event, and 400 (mem0's answer to an id that is not a UUID),
 *   become `MemoryNotFoundError`;
 * - a 2xx body that is not JSON becomes `MemoryInvalidResponseError`;
 * - a failure before any response (DNS, connection reset) is a retryable `MemoryApiCallError`;
 * - core errors (the timeout among them) pass through unchanged.
 */
export function toMemoryError(error: unknown, context: Mem0ErrorContext): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  if (isSdkHttpError(error)) {
    const status = Number(error.errorCode.slice('HTTP_'.length));
    const body = error.message.slice(0, maximumBodyLength);
    const apiCallError = createApiCallError({
      status,
      headers: error.debugInfo?.headers ?? {},
      body,
      url: error.debugInfo?.url ?? context.operation,
      message: `mem0 ${context.operation} failed with HTTP ${status}: ${body.slice(0, 300)}`,
      cause: error,
    });
    if ((status === 404 || status === 400) && context.resourceId !== undefined) {
      return new MemoryNotFoundError({ resourceId: context.resourceId, cause: apiCallError });
    }
    return apiCallError;
  }
  if (error instanceof SyntaxError) {
    return new MemoryInvalidResponseError({ message: `mem0 ${context.operation} answered with a body that is not JSON.`, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isNetworkFailure(error)) {
    return new MemoryApiCallError({ message: `mem0 ${context.operation} failed before the API answered: ${message}`, url: context.operation, isRetryable: true, cause: error });
  }
  return new MemoryApiCallError({ message: `mem0 ${context.operation} failed: ${message}`, url: context.operation, isRetryable: false, cause: error });
}
