import { MemoryRateLimitedError, MemoryTimeoutError } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
const scope = { companyId: 'acme' };
const request = { bindingKey: 'b', scope, query: 'deploy window' };

function callsTo(pathname: string) {
  return testServer.calls.filter((call) => call.pathname === pathname).length;
}

/** Answers the first `times` calls with `response`, then lets the fake answer. */
function failFirst(method: 'post' | 'get', path: string, times: number, response: () => Response) {
  let failures = 0;
  testServer.use(
    http[method](`${fake.host}${path}`, () => {
      if (failures >= times) return undefined;
      failures += 1;
      return response();
    }),
  );
}

describe('mem0 retries and timeouts', () => {
  it('retries a 429 after the Retry-After wait and succeeds', async () => {
    failFirst('post', '/v3/memories/search/', 1, () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'retry-after': '0' } }));
    const bundle = await createTestAdapter(fake).query(request);
    expect(bundle.snippets).toEqual([]);
    expect(callsTo('/v3/memories/search/')).toBe(2);
    expect(bundle.usage?.[0]?.details).toMatchObject({ attempts: 2 });
  });

  it('gives a Retry-After longer than maxRetryAfterMs back at once, with retryAfterMs', async () => {
    failFirst('post', '/v3/memories/search/', 5, () => HttpResponse.json({ detail: 'slow down' }, { status: 429, headers: { 'retry-after': '120' } }));
    await expect(createTestAdapter(fake).query(request)).rejects.toSatisfy((error) => MemoryRateLimitedError.isInstance(error) && error.retryAfterMs === 120_000);
    expect(callsTo('/v3/memories/search/')).toBe(1);
  });

  it('retries a 503 on reads with backoff, up to maxRetries', async () => {
    failFirst('post', '/v3/memories/', 1, () => HttpResponse.json({ error: 'unavailable' }, { status: 503 }));
    await createTestAdapter(fake).list({ bindingKey: 'b', scope });
    expect(callsTo('/v3/memories/')).toBe(2);
    failFirst('post', '/v3/memories/', 5, () => HttpResponse.json({ error: 'unavailable' }, { status: 503 }));
    await expect(createTestAdapter(fake, { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 } }).list({ bindingKey: 'b', scope })).rejects.toMatchObject({ statusCode: 503 });
    expect(callsTo('/v3/memories/')).toBe(2 + 3);
  });

  it('never repeats an add after a 5xx, whose outcome is unknown, but does after a 429', async () => {
    failFirst('post', '/v3/memories/add/', 1, () => HttpResponse.json({ error: 'oops' }, { status: 500 }));
    await expect(createTestAdapter(fake).upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'once' }] })).rejects.toMatchObject({ statusCode: 500, isRetryable: true });
    expect(callsTo('/v3/memories/add/')).toBe(1);
    failFirst('post', '/v3/memories/add/', 1, () => HttpResponse.json({ detail: 'throttled' }, { status: 429, headers: { 'retry-after': '0' } }));
    const written = await createTestAdapter(fake).upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'after a 429' }] });
    expect(written.records).toHaveLength(1);
    expect(callsTo('/v3/memories/add/')).toBe(3);
  });

  it('aborts the HTTP request when the timeout fires, so nothing is left hanging', async () => {
    testServer.faults.inject({ kind: 'timeout' });
    const adapter = createTestAdapter(fake, { timeoutMs: 30, retry: { maxRetries: 0 } });
    await expect(adapter.list({ bindingKey: 'b', scope })).rejects.toSatisfy((error) => MemoryTimeoutError.isInstance(error) && error.timeoutMs === 30);
    // The fault holds a request until its signal aborts; the adapter's abort released it.
    expect(testServer.faults.hangingRequestCount).toBe(0);
  });

  it('reports later batches that fail as failures once an earlier batch is stored', async () => {
    let adds = 0;
    testServer.use(
      http.post(`${fake.host}/v3/memories/add/`, () => {
        adds += 1;
        return adds === 2 ? HttpResponse.json({ error: 'Invalid metadata' }, { status: 400 }) : undefined;
      }),
    );
    const result = await createTestAdapter(fake).upsertRecords({
      bindingKey: 'b',
      scope,
      records: [{ text: 'first', metadata: { batch: 1 } }, { text: 'second', metadata: { batch: 2 } }, { text: 'third', metadata: { batch: 2 } }, { text: 'fourth', metadata: { batch: 3 } }],
    });
    expect(result.records).toHaveLength(2);
    expect(result.failures).toEqual([
      expect.objectContaining({ index: 1, code: 'MEMORY_API_CALL', isRetryable: false }),
      expect.objectContaining({ index: 2, code: 'MEMORY_API_CALL', isRetryable: false }),
    ]);
  });
});
