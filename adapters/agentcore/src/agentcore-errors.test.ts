import {
  MemoryApiCallError,
  MemoryConflictError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryRateLimitedError,
  MemoryTimeoutError,
} from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { agentCoreEndpoint } from './testing/agentcore-fake-responses';
import { setupAgentCoreTestEnvironment, testRegion } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();
const listUrl = `${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords`;
const scope = { companyId: 'acme' };

function awsError(status: number, errorType: string, headers: Record<string, string> = {}) {
  return () => new HttpResponse(JSON.stringify({ message: `${errorType} from the test` }), { status, headers: { 'content-type': 'application/json', 'x-amzn-errortype': errorType, ...headers } });
}

function listCalls(): number {
  return environment.server.calls.filter((call) => call.pathname.endsWith('/memoryRecords')).length;
}

async function listError(overrides = {}): Promise<unknown> {
  return environment.createAdapter(overrides).list({ bindingKey: 'default', scope }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('error mapping', () => {
  it('maps ThrottledException to MemoryRateLimitedError with retryAfterMs from Retry-After, and gives up at once on a wait beyond the policy', async () => {
    environment.server.use(http.post(listUrl, awsError(429, 'ThrottledException', { 'retry-after': '7' })));
    const error = await listError();
    expect(MemoryRateLimitedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_RATE_LIMITED', isRetryable: true, retryAfterMs: 7000, statusCode: 429 });
    expect(listCalls()).toBe(1);
  });

  it('honours a short Retry-After and succeeds on the retry', async () => {
    environment.server.use(http.post(listUrl, awsError(429, 'ThrottledException', { 'retry-after': '0' }), { once: true }));
    const page = await environment.createAdapter().list({ bindingKey: 'default', scope });
    expect(page.items).toEqual([]);
    expect(listCalls()).toBe(2);
  });

  it('retries throttling without Retry-After and 5xx with bounded backoff, then throws the last error', async () => {
    environment.server.use(http.post(listUrl, awsError(429, 'ThrottledException')));
    expect(await listError()).toMatchObject({ code: 'MEMORY_RATE_LIMITED', retryAfterMs: undefined });
    expect(listCalls()).toBe(3);
    environment.server.use(http.post(listUrl, awsError(500, 'ServiceException')));
    expect(await listError({ retry: { maxRetries: 1, initialDelayMs: 1 } })).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: 500, isRetryable: true });
    expect(listCalls()).toBe(5);
  });

  it('does not retry client errors: validation (400), quota (402) and access (403)', async () => {
    for (const [status, errorType] of [[400, 'ValidationException'], [402, 'ServiceQuotaExceededException'], [403, 'AccessDeniedException']] as const) {
      environment.server.use(http.post(listUrl, awsError(status, errorType)));
      const before = listCalls();
      const error = await listError();
      expect(MemoryApiCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: status, isRetryable: false });
      expect((error as Error).message).toContain(errorType);
      expect(listCalls() - before).toBe(1);
    }
  });

  it('maps RetryableConflictException to the retryable MemoryConflictError', async () => {
    environment.server.use(http.post(listUrl, awsError(409, 'RetryableConflictException')));
    const error = await listError({ retry: { maxRetries: 0 } });
    expect(MemoryConflictError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true });
  });

  it('reports a memory that does not exist as an API error, not as an empty result', async () => {
    const error = await listError({ memoryId: 'another_memory-ZyXwVu9876' });
    expect(error).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: 404, isRetryable: false });
  });

  it('maps a connection failure to a retryable error and a body the SDK cannot read to MemoryInvalidResponseError', async () => {
    environment.server.use(http.post(listUrl, () => HttpResponse.error()));
    const network = await listError({ retry: { maxRetries: 0 } });
    expect(network).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: true });
    expect((network as Error).message).toContain('before AgentCore answered');
    environment.server.use(http.post(listUrl, () => new HttpResponse('{"memoryRecordSummaries": [', { status: 200, headers: { 'content-type': 'application/json' } })));
    const before = listCalls();
    expect(MemoryInvalidResponseError.isInstance(await listError())).toBe(true);
    expect(listCalls() - before).toBe(1);
    environment.server.use(http.post(listUrl, () => HttpResponse.json({ memoryRecordSummaries: [{ memoryRecordId: 'mem-1', namespaces: ['/c/acme/'] }] })));
    expect(await listError()).toMatchObject({ code: 'MEMORY_INVALID_RESPONSE', field: 'memoryRecordSummaries.0.content' });
  });

  it('gives every attempt the configured timeout, aborting the SDK request', async () => {
    environment.server.faults.inject({ kind: 'timeout' });
    const client = environment.createClient();
    const send = vi.spyOn(client, 'send');
    const started = performance.now();
    const error = await listError({ client, timeoutMs: 150, retry: { maxRetries: 1, initialDelayMs: 1 } });
    environment.server.faults.reset();
    const signals = send.mock.calls.map((call) => (call[1] as { abortSignal?: AbortSignal } | undefined)?.abortSignal);
    expect(signals.map((signal) => signal?.aborted)).toEqual([true, true]);
    expect(MemoryTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true, timeoutMs: 150 });
    expect(listCalls()).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('never lets a raw SDK error escape', async () => {
    for (const status of [400, 404, 409, 429, 500, 503]) {
      environment.server.use(http.post(listUrl, awsError(status, 'SomeNewException')));
      expect(MemoryError.isInstance(await listError({ retry: { maxRetries: 0 } }))).toBe(true);
    }
  });
});

describe('usage', () => {
  it('measures latency, keeps the SDK metadata in raw, and invents no counter', async () => {
    const adapter = environment.createAdapter();
    const write = await adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'a fact' }] });
    const page = await adapter.list({ bindingKey: 'default', scope });
    for (const usage of [...(write.usage ?? []), ...(page.usage ?? [])]) {
      expect(usage).toEqual({
        provider: 'agentcore',
        billingType: 'metered_api',
        attributionMode: 'external_invoice',
        latencyMs: expect.any(Number),
        details: { operation: expect.any(String), requestId: expect.any(String) },
        raw: { httpStatusCode: expect.any(Number), requestId: expect.any(String), attempts: 1, totalRetryDelay: 0 },
      });
      expect(usage.latencyMs).toBeGreaterThan(0);
    }
    expect(page.usage?.[0]?.details?.operation).toBe('ListMemoryRecords');
  });
});
