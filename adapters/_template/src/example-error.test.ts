import {
  MemoryApiCallError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
  MemoryRateLimitedError,
  MemoryTimeoutError,
  MemoryValidationError,
  type MemoryScope,
} from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createExampleAdapter } from './example-adapter';
import { ExampleApiError } from './example-client';
import { toMemoryError } from './example-error';
import { setupExampleFakeServer } from './example-fake-server';
import type { ExampleAdapterSettings } from './example-settings';

const { api, testServer } = setupExampleFakeServer();
const scope: MemoryScope = { companyId: 'company-errors' };
const query = { bindingKey: 'main', scope, query: 'anything' };

function createAdapter(settings: ExampleAdapterSettings = {}) {
  return createExampleAdapter({ apiKey: api.apiKey, baseURL: api.baseURL, ...settings });
}

function apiError(status: number, headers: Record<string, string> = {}, body = '') {
  return new ExampleApiError({
    status,
    headers: new Headers(headers),
    body,
    url: `${api.baseURL}/v1/search`,
    message: `Example API error ${status}.`,
  });
}

describe('toMemoryError', () => {
  it('maps 429 to a rate-limit error with the Retry-After wait', () => {
    const error = toMemoryError(apiError(429, { 'retry-after': '3' }), { operation: 'query' });
    expect(MemoryRateLimitedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true, retryAfterMs: 3000, statusCode: 429 });
  });

  it('maps 5xx to a retryable and 4xx to a final API call error, keeping the body', () => {
    expect(toMemoryError(apiError(503, {}, '{"error":{}}'), { operation: 'list' })).toMatchObject({
      code: 'MEMORY_API_CALL',
      isRetryable: true,
      statusCode: 503,
      responseBody: '{"error":{}}',
    });
    expect(toMemoryError(apiError(400), { operation: 'list' })).toMatchObject({
      code: 'MEMORY_API_CALL',
      isRetryable: false,
      statusCode: 400,
    });
  });

  it('maps 404 about one record to not found, and 404 of anything else to an API call error', () => {
    const notFound = toMemoryError(apiError(404), { operation: 'get', resourceId: 'record:rec_1' });
    expect(MemoryNotFoundError.isInstance(notFound) && notFound.resourceId).toBe('record:rec_1');
    expect(MemoryApiCallError.isInstance(toMemoryError(apiError(404), { operation: 'list' }))).toBe(true);
  });

  it('maps a failure before any answer to a retryable API call error and passes core errors through', () => {
    const network = toMemoryError(new TypeError('fetch failed'), { operation: 'query' });
    expect(network).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: true, statusCode: undefined });
    expect(network.message).toContain('fetch failed');
    const timeout = new MemoryTimeoutError({ timeoutMs: 5, operation: 'query' });
    expect(toMemoryError(timeout, { operation: 'query' })).toBe(timeout);
  });
});

describe('failures at the API', () => {
  it('retries a 429 as the Retry-After header asks, then gives the rate-limit error back', async () => {
    testServer.faults.inject({ kind: 'rate_limited', retryAfterSeconds: 0 });
    const error = await createAdapter({ retry: { maxRetries: 2 } })
      .query(query)
      .catch((caught: unknown) => caught);
    expect(MemoryRateLimitedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ message: 'Example API error 429: Injected rate_limited fault.', retryAfterMs: 0 });
    expect(testServer.calls).toHaveLength(3);
  });

  it('does not wait longer than the retry policy allows for Retry-After', async () => {
    testServer.faults.inject({ kind: 'rate_limited', retryAfterSeconds: 120 });
    const error = await createAdapter({ retry: { maxRetries: 2, maxRetryAfterMs: 1000 } })
      .query(query)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'MEMORY_RATE_LIMITED', retryAfterMs: 120_000 });
    expect(testServer.calls).toHaveLength(1);
  });

  it('retries a 5xx and succeeds when the API recovers', async () => {
    let answered = 0;
    testServer.use(
      http.post(`${api.baseURL}/v1/search`, () => {
        answered += 1;
        return answered === 1
          ? HttpResponse.json({ error: { code: 'unavailable', message: 'restarting' } }, { status: 503 })
          : undefined;
      }),
    );
    const bundle = await createAdapter({ retry: { maxRetries: 1, initialDelayMs: 0 } }).query(query);
    expect(bundle.snippets).toEqual([]);
    expect(testServer.calls).toHaveLength(2);
  });

  it('does not retry a 4xx and names the API message', async () => {
    const error = await createAdapter({ apiKey: 'wrong-key', retry: { maxRetries: 2 } })
      .query(query)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'MEMORY_API_CALL',
      statusCode: 401,
      isRetryable: false,
      message: 'Example API error 401: Missing or invalid API key.',
    });
    expect(testServer.calls).toHaveLength(1);
  });

  it('turns a body that does not match the API into an invalid-response error', async () => {
    testServer.faults.inject({ kind: 'malformed_body' });
    await expect(createAdapter().list({ bindingKey: 'main', scope })).rejects.toThrow(MemoryInvalidResponseError);
    testServer.use(
      http.get(`${api.baseURL}/v1/records`, () => new HttpResponse('<html>gateway</html>', { status: 200 })),
    );
    await expect(createAdapter().list({ bindingKey: 'main', scope })).rejects.toThrow(MemoryInvalidResponseError);
  });

  it('times out an attempt the API never answers, on every retry', async () => {
    testServer.faults.inject({ kind: 'timeout' });
    const error = await createAdapter({ timeoutMs: 50, retry: { maxRetries: 1, initialDelayMs: 0 } })
      .query(query)
      .catch((caught: unknown) => caught);
    expect(MemoryTimeoutError.isInstance(error)).toBe(true);
    expect(testServer.calls).toHaveLength(2);
    expect(testServer.faults.hangingRequestCount).toBe(0);
  });

  it('turns a connection failure into a retryable API call error', async () => {
    testServer.use(http.post(`${api.baseURL}/v1/search`, () => HttpResponse.error()));
    const error = await createAdapter({ retry: { maxRetries: 0 } })
      .query(query)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: true, statusCode: undefined });
  });

  it('maps a 404 of get to null and of correct to not found', async () => {
    const adapter = createAdapter();
    const handle = { providerKey: 'example', providerRecordId: 'record:rec_missing' };
    expect(await adapter.get(handle, scope)).toBeNull();
    await expect(adapter.correct(handle, { text: 'x' }, scope)).rejects.toThrow(MemoryNotFoundError);
  });

  it('refuses bad settings before any call, naming the setting', () => {
    expect(() => createAdapter({ timeoutMs: -1 })).toThrow(MemoryValidationError);
    expect(() => createAdapter({ retry: { maxRetries: -1 } })).toThrow(
      expect.objectContaining({ code: 'MEMORY_VALIDATION', field: 'settings.retry.maxRetries' }),
    );
    expect(testServer.calls).toEqual([]);
  });
});
