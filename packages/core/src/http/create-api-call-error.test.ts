import { describe, expect, it } from 'vitest';
import { MemoryApiCallError, MemoryRateLimitedError } from '../errors/memory-api-call-error';
import { createApiCallError } from './create-api-call-error';

describe('createApiCallError', () => {
  it('maps 429 to a retryable rate-limit error with Retry-After seconds in milliseconds', () => {
    const error = createApiCallError({ status: 429, headers: new Headers({ 'Retry-After': '3' }) });
    expect(error).toBeInstanceOf(MemoryRateLimitedError);
    expect(error).toMatchObject({ code: 'MEMORY_RATE_LIMITED', statusCode: 429, isRetryable: true, retryAfterMs: 3000 });
  });

  it('reads Retry-After as an HTTP date from a plain header record, whatever the case of its name', () => {
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const error = createApiCallError({ status: 429, headers: { 'Retry-After': inTwoMinutes } });
    expect(MemoryRateLimitedError.isInstance(error)).toBe(true);
    expect(error.retryAfterMs).toBeGreaterThan(118_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it('prefers retry-after-ms, which carries milliseconds', () => {
    const error = createApiCallError({ status: 429, headers: new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }) });
    expect(error.retryAfterMs).toBe(1500);
  });

  it('falls back to Retry-After when retry-after-ms is not a whole number', () => {
    const error = createApiCallError({ status: 429, headers: { 'retry-after-ms': 'soon', 'retry-after': '2' } });
    expect(error.retryAfterMs).toBe(2000);
  });

  it('leaves retryAfterMs undefined when the provider named no wait', () => {
    expect(createApiCallError({ status: 429 }).retryAfterMs).toBeUndefined();
    expect(createApiCallError({ status: 429, headers: { 'x-other': '1' } }).retryAfterMs).toBeUndefined();
  });

  it('maps 503 to a retryable API call error that is not a rate limit', () => {
    const error = createApiCallError({ status: 503, headers: { 'retry-after': '4' } });
    expect(error).toBeInstanceOf(MemoryApiCallError);
    expect(MemoryRateLimitedError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: 503, isRetryable: true, retryAfterMs: 4000 });
  });

  it('maps 400 to an API call error that is not retryable', () => {
    const error = createApiCallError({ status: 400, body: '{"error":"bad filter"}' });
    expect(error).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: 400, isRetryable: false, responseBody: '{"error":"bad filter"}' });
  });

  it('says the status and URL by default, and keeps the provider message and cause when given', () => {
    expect(createApiCallError({ status: 502, url: 'https://api.example.test/v1/search' }).message).toBe(
      'Provider call failed with HTTP 502 (https://api.example.test/v1/search).',
    );
    expect(createApiCallError({ status: 502 }).message).toBe('Provider call failed with HTTP 502.');
    const cause = new Error('sdk error');
    const error = createApiCallError({ status: 401, message: 'Invalid API key', cause, url: 'search' });
    expect(error).toMatchObject({ message: 'Invalid API key', url: 'search', isRetryable: false });
    expect(error.cause).toBe(cause);
  });
});
