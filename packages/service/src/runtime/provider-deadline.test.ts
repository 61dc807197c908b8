import { MemoryTimeoutError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import type { MemoryServiceSettings } from '../service/memory-service-settings';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools } from '../tools/memory-tools';

/** A provider whose calls wait until the test settles them; by default they never do. */
function createHangingProvider() {
  const pending: Array<{ operation: string; resolve: (value: unknown) => void }> = [];
  const hang = (operation: string) => new Promise<never>((resolve) => pending.push({ operation, resolve: resolve as (value: unknown) => void }));
  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key: 'hanging',
    capabilities: { asyncExtraction: true, profile: true, correction: true },
    capture: () => hang('capture'),
    upsertRecords: () => hang('upsertRecords'),
    query: () => hang('query'),
    list: () => hang('list'),
    get: () => hang('get'),
    forget: () => hang('forget'),
    correct: () => hang('correct'),
    profile: () => hang('profile'),
    getExtractionJob: () => hang('getExtractionJob'),
    listExtractionJobs: () => hang('listExtractionJobs'),
    retryExtractionJob: () => hang('retryExtractionJob'),
    explain: () => hang('explain'),
  };
  return {
    pending,
    factory: { providerId: 'hanging', description: 'Never answers (test only).', capabilities: adapter.capabilities, create: () => adapter },
  };
}

describe('deadlines of provider calls', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  let provider: ReturnType<typeof createHangingProvider>;

  async function start(settings: MemoryServiceSettings = {}) {
    provider = createHangingProvider();
    ({ service, cleanUp } = await createTestService({ providers: [provider.factory], deadlines: { defaultMs: 1000 }, ...settings }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'hanging', { hooks: { postRunCapture: true } });
  }

  /** Lets the deadline pass: only timers are fake, so the SQLite store and the log keep working. */
  async function expire<Value>(call: Promise<Value>, milliseconds: number): Promise<PromiseSettledResult<Value>> {
    const settled = Promise.allSettled([call]).then(([result]) => result!);
    await vi.advanceTimersByTimeAsync(milliseconds);
    return settled;
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  afterEach(async () => {
    vi.useRealTimers();
    await cleanUp();
  });

  it('gives the caller MemoryTimeoutError in time, logs MEMORY_TIMEOUT and returns the in-flight count to zero', async () => {
    await start();
    const planner = service.runtime(as(actors.planner));
    const calls = [
      planner.query({ query: 'q' }),
      planner.list(),
      planner.get({ handle: { providerKey: 'hanging', providerRecordId: 'r-1' } }),
      planner.profile(),
      planner.upsertRecords({ records: [{ text: 'x' }] }),
      planner.capture({ source: { kind: 'manual_note' }, payload: { text: 'y' } }),
    ];
    expect(service.metrics().inFlightOperations).toBe(calls.length);
    let finished = 0;
    for (const call of calls) call.then(() => (finished += 1), () => (finished += 1));
    await vi.advanceTimersByTimeAsync(999);
    expect(finished).toBe(0);
    const settled = await Promise.all(calls.map((call) => expire(call, 1)));
    for (const result of settled) {
      expect(result.status).toBe('rejected');
      expect(MemoryTimeoutError.isInstance((result as PromiseRejectedResult).reason)).toBe(true);
    }
    expect(service.metrics()).toMatchObject({ inFlightOperations: 0, timedOutProviderCalls: calls.length });
    const failed = (await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' })).items;
    expect(failed.map((entry) => entry.errorCode)).toEqual(calls.map(() => 'MEMORY_TIMEOUT'));
    expect((await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'succeeded' })).items).toEqual([]);
  });

  it('discards a late result: never logged as a success, never registered, never counted', async () => {
    await start();
    const written = service.runtime(as(actors.planner)).upsertRecords({ records: [{ text: 'late' }] });
    const result = await expire(written, 1000);
    expect(result.status).toBe('rejected');
    for (const call of provider.pending) call.resolve({ records: [{ providerKey: 'hanging', providerRecordId: 'late-1' }] });
    await vi.advanceTimersByTimeAsync(10);
    await service.flush();
    const binding = await service.store.getBindingByKey('acme', 'default');
    expect(await service.store.getBindingUsage('acme', binding!.id)).toEqual({ records: 0, bytes: 0 });
    expect(await service.store.placeRecords('acme', 'hanging', ['late-1'])).toEqual({ own: [], foreignIds: [] });
    const entries = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(entries.map((entry) => [entry.operation, entry.status])).toEqual([['record_upsert', 'failed']]);
  });

  it('takes a per-binding deadline from the operator', async () => {
    await start({ deadlines: { defaultMs: 60_000, forBinding: (binding) => (binding.key === 'default' ? 200 : undefined) } });
    const result = await expire(service.runtime(as(actors.planner)).query({ query: 'q' }), 200);
    expect(result.status).toBe('rejected');
    expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'MEMORY_TIMEOUT', timeoutMs: 200 });
  });

  it('gives agent tools a timeout they can act on', async () => {
    await start();
    const search = createMemoryTools(service).find((tool) => tool.name === 'memory.search')!;
    const result = await expire(search.execute({ query: 'q' }, as(actors.planner)), 1000);
    expect(result).toMatchObject({ status: 'fulfilled', value: { isError: true, error: { code: 'MEMORY_TIMEOUT' } } });
    expect(service.metrics().inFlightOperations).toBe(0);
  });

  it('leaves a failed MEMORY_TIMEOUT operation for a timed-out hydration and capture, and the run starts', async () => {
    await start({ hooks: { timeoutMs: 500 } });
    const system = { actor: actors.heartbeat, companyId: 'acme' } as const;
    const hydration = await expire(service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'q' }), 500);
    expect(hydration).toMatchObject({ status: 'fulfilled', value: { preamble: '', deliveries: [{ status: 'timed_out' }] } });
    const capture = await expire(service.hooks.postRunCapture(system, { agentId: 'planner', heartbeatRunId: 'run-1', output: { text: 'done' } }), 500);
    expect(capture).toMatchObject({ status: 'fulfilled', value: { deliveries: [{ status: 'timed_out' }] } });
    const entries = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(entries.map((entry) => [entry.operation, entry.status, entry.errorCode, entry.hookKind])).toEqual([
      ['capture', 'failed', 'MEMORY_TIMEOUT', 'post_run_capture'],
      ['query', 'failed', 'MEMORY_TIMEOUT', 'pre_run_hydrate'],
    ]);
    // Each timed-out delivery points at its failed operation.
    const deliveries = (await service.explorer(as(actors.acmeAdmin)).listHookDeliveries()).items;
    expect(deliveries.map((delivery) => [delivery.hookKind, delivery.status, delivery.operationId])).toEqual([
      ['post_run_capture', 'timed_out', entries[0]!.id],
      ['pre_run_hydrate', 'timed_out', entries[1]!.id],
    ]);
    expect(service.metrics().inFlightOperations).toBe(0);
  });

  it('cuts off an extraction poll that hangs', async () => {
    await start();
    const scope: MemoryScope = { companyId: 'acme', agentId: 'planner' };
    const binding = await service.store.getBindingByKey('acme', 'default');
    await service.store.upsertExtractionJobs([
      {
        id: 'job_1',
        companyId: 'acme',
        bindingId: binding!.id,
        bindingKey: 'default',
        providerJobId: 'provider-job-1',
        status: 'queued',
        scope,
        retryCount: 0,
        createdAt: '2026-11-01T00:00:00.000Z',
        updatedAt: '2026-11-01T00:00:00.000Z',
      },
    ]);
    const refresh = await expire(service.runtime({ actor: actors.heartbeat, companyId: 'acme' }).refreshExtractionJobs({ bindingKey: 'default' }), 1000);
    expect(refresh).toMatchObject({ status: 'rejected', reason: { code: 'MEMORY_TIMEOUT' } });
    expect(service.metrics().inFlightOperations).toBe(0);
  });
});
