import { MemoryApiCallError, MemoryRateLimitedError } from '../errors/memory-api-call-error';
import { parseRetryAfter } from './parse-retry-after';

/** What an adapter knows about a failed HTTP response. */
export interface FailedResponse {
  /** The HTTP status. */
  status: number;
  /** The response headers (a `Headers` object or a plain record). */
  headers?: Headers | Record<string, string | undefined>;
  /** The response body as text, if read. */
  body?: string;
  /** The URL or operation that was called. */
  url?: string;
  /** The provider's error message, if it sent one. */
  message?: string;
  /** The error the SDK threw. */
  cause?: unknown;
}

function readHeader(headers: FailedResponse['headers'], name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/**
 * Maps a failed HTTP response to the core error: 429 becomes `MemoryRateLimitedError`,
 * everything else `MemoryApiCallError`, with `isRetryable` from the status and
 * `retryAfterMs` from Retry-After (or `retry-after-ms`).
 */
export function createApiCallError(response: FailedResponse): MemoryApiCallError {
  const retryAfterMilliseconds = readHeader(response.headers, 'retry-after-ms');
  const retryAfterMs =
    retryAfterMilliseconds !== undefined && /^\d+$/.test(retryAfterMilliseconds)
      ? Number(retryAfterMilliseconds)
      : parseRetryAfter(readHeader(response.headers, 'retry-after'));
  const options = {
    message: response.message ?? `Provider call failed with HTTP ${response.status}${response.url ? ` (${response.url})` : ''}.`,
    statusCode: response.status,
    url: response.url,
    responseBody: response.body,
    retryAfterMs,
    cause: response.cause,
  };
  return response.status === 429 ? new MemoryRateLimitedError(options) : new MemoryApiCallError(options);
}
