import { MemoryApiCallError, MemoryError, MemoryInvalidResponseError, MemoryRateLimitedError, MemoryTimeoutError } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { createSupermemoryAdapter } from './supermemory-adapter';
import { callsAfterNow, fakeApiKey, fakeBaseURL, setupSupermemoryFake } from './testing/supermemory-test-setup';

const environment = setupSupermemoryFake();
const { testServer } = environment;
const scope = { companyId: 'errors-company' };
const listRequest = { bindingKey: 'tests', scope };
const listUrl = `${fakeBaseURL}/v4/memories/list`;

/** Answers the first `count` list calls with `response`, then lets the fake answer. */
function failFirst(count: number, response: () => Response): void {
  let seen = 0;
  testServer.use(
    http.post(listUrl, () => {
      seen += 1;
      return seen <= count ? response() : undefined;
    }),
  );
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('retries', () => {
  it('are the adapter policy alone: the SDK never retries, and a 503 is retried by the adapter', async () => {
    failFirst(1, () => HttpResponse.json({ error: 'busy' }, { status: 503 }));
    await expect(environment.createAdapter().list(listRequest)).resolves.toMatchObject({ items: [] });
    expect(testServer.calls.map((call) => call.headers['x-stainless-retry-count'])).toEqual(['0', '0']);
  });

  it('honour retry-after-ms from a 429, and give up at once when Retry-After exceeds maxRetryAfterMs', async () => {
    failFirst(1, () => HttpResponse.json({ error: 'slow down' }, { status: 429, headers: { 'retry-after-ms': '5' } }));
    await expect(environment.createAdapter().list(listRequest)).resolves.toMatchObject({ items: [] });
    expect(testServer.calls).toHaveLength(2);

    const later = callsAfterNow(testServer);
    failFirst(5, () => HttpResponse.json({ error: 'slow down' }, { status: 429, headers: { 'retry-after': '120' } }));
    const error = await rejection(environment.createAdapter().list(listRequest));
    expect(MemoryRateLimitedError.isInstance(error) && error.retryAfterMs).toBe(120_000);
    expect(MemoryError.isInstance(error) && error.isRetryable).toBe(true);
    expect(later()).toHaveLength(1);
  });

  it('are bounded: maxRetries 0 makes exactly one call, and a persistent 500 stops after maxRetries', async () => {
    failFirst(10, () => HttpResponse.json({ error: 'boom' }, { status: 500 }));
    const once = await rejection(environment.createAdapter({ retry: { maxRetries: 0 } }).list(listRequest));
    expect(MemoryApiCallError.isInstance(once) && once.statusCode).toBe(500);
    expect(testServer.calls).toHaveLength(1);
    const later = callsAfterNow(testServer);
    await rejection(environment.createAdapter({ retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } }).list(listRequest));
    expect(later()).toHaveLength(3);
  });
});

describe('error mapping', () => {
  it('maps 401 to a non-retryable MemoryApiCallError with the status and the provider body', async () => {
    const adapter = createSupermemoryAdapter({ apiKey: fakeApiKey, cursorSecret: 'x'.repeat(16) });
    failFirst(1, () => HttpResponse.json({ error: 'Unauthorized', details: 'bad key' }, { status: 401 }));
    const error = await rejection(adapter.list(listRequest));
    expect(MemoryApiCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: 401, isRetryable: false });
    expect((error as MemoryApiCallError).responseBody).toContain('bad key');
    expect(testServer.calls).toHaveLength(1);
  });

  it('maps a body that is not JSON, and a body of the wrong shape, to MemoryInvalidResponseError', async () => {
    failFirst(1, () => new HttpResponse('{"memoryEntries": [', { status: 200, headers: { 'content-type': 'application/json' } }));
    expect(MemoryInvalidResponseError.isInstance(await rejection(environment.createAdapter().list(listRequest)))).toBe(true);
    failFirst(1, () => HttpResponse.json({ memoryEntries: [{ id: 42 }], pagination: {} }));
    expect(MemoryInvalidResponseError.isInstance(await rejection(environment.createAdapter().list(listRequest)))).toBe(true);
  });

  it('maps a provider that never answers to MemoryTimeoutError after the per-attempt timeout', async () => {
    testServer.faults.inject({ kind: 'timeout' });
    const error = await rejection(environment.createAdapter({ timeoutMs: 50, retry: { maxRetries: 1, initialDelayMs: 1 } }).list(listRequest));
    expect(MemoryTimeoutError.isInstance(error)).toBe(true);
    expect(testServer.calls).toHaveLength(2);
    expect(testServer.faults.hangingRequestCount).toBe(0);
  });

  it('refuses unhandled requests instead of reaching the network', async () => {
    const adapter = createSupermemoryAdapter({ apiKey: fakeApiKey, baseURL: 'https://unknown.supermemory.test', retry: { maxRetries: 0 } });
    // msw reports the unhandled request on the console; that report is expected here.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const error = await rejection(adapter.list(listRequest));
      expect(MemoryApiCallError.isInstance(error)).toBe(true);
    } finally {
      printed.mockRestore();
    }
    expect(testServer.calls.map((call) => call.url)).toEqual(['https://unknown.supermemory.test/v4/memories/list']);
  });
});
