import {
  createApiCallError,
  MemoryApiCallError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
  MemoryTimeoutError,
} from '@memplane/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'supermemory';

// The SDK ships CommonJS and ESM copies; a client built from the other copy throws errors that
// fail `instanceof`, so the class name is checked too.
function isSdkError(error: unknown, sdkClass: abstract new (...parameters: never[]) => unknown): boolean {
  if (error instanceof sdkClass) return true;
  return typeof error === 'object' && error !== null && error.constructor?.name === sdkClass.name;
}

function httpStatusOf(error: unknown): { status: number; headers: Headers | undefined; body: unknown } | undefined {
  if (!isSdkError(error, APIError) && !(error instanceof APIError)) {
    const candidate = error as { status?: unknown; headers?: unknown; error?: unknown } | null;
    const looksLikeApiError =
      typeof candidate === 'object' && candidate !== null && typeof candidate.status === 'number' && candidate.headers instanceof Headers;
    if (!looksLikeApiError) return undefined;
  }
  const apiError = error as { status?: unknown; headers?: unknown; error?: unknown };
  if (typeof apiError.status !== 'number') return undefined;
  return {
    status: apiError.status,
    headers: apiError.headers instanceof Headers ? apiError.headers : undefined,
    body: apiError.error,
  };
}

/** What was being done when a call failed. */
export interface SupermemoryErrorContext {
  /** The adapter operation, such as `list`. */
  operation: string;
  /** The provider id the call was about, for calls about one resource. A 404 then means "not found". */
  resourceId?: string;
  /** The per-attempt timeout, for the timeout error. */
  timeoutMs: number;
}

const maximumBodyLength = 2000;

function describeBody(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.slice(0, maximumBodyLength);
}

/**
 * Maps whatever the SDK threw to a core error:
 * - an HTTP error goes through core `createApiCallError` (429 → `MemoryRateLimitedError`,
 *   408/409/429/5xx retryable, `retryAfterMs` from `retry-after-ms` or `Retry-After`);
 *   a 404 about one resource becomes `MemoryNotFoundError`;
 * - the SDK's timeout and an abort (our timeout firing) become `MemoryTimeoutError`;
 * - a connection failure becomes a retryable `MemoryApiCallError`;
 * - a body that is not JSON (the SDK's `SyntaxError`) becomes `MemoryInvalidResponseError`;
 * - core errors pass through unchanged.
 */
export function toMemoryError(error: unknown, context: SupermemoryErrorContext): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  if (isSdkError(error, APIConnectionTimeoutError) || isSdkError(error, APIUserAbortError)) {
    return new MemoryTimeoutError({ timeoutMs: context.timeoutMs, operation: `Supermemory ${context.operation}`, cause: error });
  }
  if (isSdkError(error, APIConnectionError)) {
    return new MemoryApiCallError({
      message: `Supermemory ${context.operation} failed before the API answered: ${(error as Error).message}`,
      url: context.operation,
      isRetryable: true,
      cause: error,
    });
  }
  const http = httpStatusOf(error);
  if (http !== undefined) {
    const apiCallError = createApiCallError({
      status: http.status,
      headers: http.headers,
      body: describeBody(http.body),
      url: context.operation,
      message: `Supermemory ${context.operation} failed: ${(error as Error).message}`,
      cause: error,
    });
    if (http.status === 404 && context.resourceId !== undefined) {
      return new MemoryNotFoundError({ resourceId: context.resourceId, cause: apiCallError });
    }
    return apiCallError;
  }
  if (error instanceof SyntaxError) {
    return new MemoryInvalidResponseError({ message: `Supermemory ${context.operation} returned a body that is not JSON.`, cause: error });
  }
  return new MemoryApiCallError({
    message: `Supermemory ${context.operation} failed: ${error instanceof Error ? error.message : String(error)}`,
    url: context.operation,
    isRetryable: false,
    cause: error,
  });
}
