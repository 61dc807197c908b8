import {
  MemoryApiCallError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
  MemoryRateLimitedError,
  MemoryTimeoutError,
} from '@memplane/core';
import { createExceptionFromResponse } from 'mem0ai';
import { describe, expect, it } from 'vitest';
import { toMemoryError } from './mem0-error';

function sdkError(status: number, body: string, headers: Record<string, string> = {}) {
  return createExceptionFromResponse(status, body, { debugInfo: { status, url: 'https://api.mem0.test/v3/memories/search/', headers } });
}

describe('toMemoryError', () => {
  it('maps a 429 to MemoryRateLimitedError with retryAfterMs from Retry-After', () => {
    const error = toMemoryError(sdkError(429, '{"detail":"Request was throttled."}', { 'retry-after': '7' }), { operation: 'query (search)' });
    expect(MemoryRateLimitedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true, retryAfterMs: 7000, statusCode: 429, url: 'https://api.mem0.test/v3/memories/search/' });
    expect(error.message).toContain('Request was throttled.');
  });

  it('reads an HTTP-date Retry-After too, and leaves retryAfterMs unset without one', () => {
    const date = new Date(Date.now() + 60_000).toUTCString();
    const withDate = toMemoryError(sdkError(503, 'busy', { 'retry-after': date }), { operation: 'list (getAll)' });
    expect(withDate.retryAfterMs).toBeGreaterThan(50_000);
    expect(toMemoryError(sdkError(503, 'busy'), { operation: 'list (getAll)' }).retryAfterMs).toBeUndefined();
  });

  it('marks 5xx, 408 and 409 retryable and other 4xx not', () => {
    for (const status of [500, 502, 503, 504, 408, 409]) {
      expect(toMemoryError(sdkError(status, 'x'), { operation: 'query' }).isRetryable).toBe(true);
    }
    for (const status of [400, 401, 403, 413, 422]) {
      const error = toMemoryError(sdkError(status, 'x'), { operation: 'query' });
      expect(MemoryApiCallError.isInstance(error) && error.statusCode).toBe(status);
      expect(error.isRetryable).toBe(false);
    }
  });

  it('maps 404, and 400 (an id that is not a UUID), about one memory to MemoryNotFoundError', () => {
    const notFound = toMemoryError(sdkError(404, '{"error":"Memory not found!"}'), { operation: 'get', resourceId: 'memory:abc' });
    expect(MemoryNotFoundError.isInstance(notFound) && notFound.resourceId).toBe('memory:abc');
    expect(MemoryNotFoundError.isInstance(toMemoryError(sdkError(400, 'bad id'), { operation: 'get', resourceId: 'memory:abc' }))).toBe(true);
    expect(MemoryNotFoundError.isInstance(toMemoryError(sdkError(404, 'x'), { operation: 'list' }))).toBe(false);
  });

  it('maps a body that is not JSON, network failures and unknown errors', () => {
    expect(MemoryInvalidResponseError.isInstance(toMemoryError(new SyntaxError('Unexpected token'), { operation: 'list' }))).toBe(true);
    const network = toMemoryError(new TypeError('fetch failed', { cause: new Error('ECONNRESET') }), { operation: 'list' });
    expect(network).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: true });
    expect(toMemoryError(new Error('Cannot process an empty messages payload.'), { operation: 'capture' })).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: false });
  });

  it('passes core errors through unchanged', () => {
    const timeout = new MemoryTimeoutError({ timeoutMs: 10, operation: 'mem0 list' });
    expect(toMemoryError(timeout, { operation: 'list' })).toBe(timeout);
  });
});
