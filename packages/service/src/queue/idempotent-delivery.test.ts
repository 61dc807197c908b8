import type { MemoryAdapter, MemoryScope } from '@memplane/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import type { QueueableCaptureHooks } from './background-work';

interface Written {
  id: string;
  text: string;
  scope: MemoryScope;
  metadata: Record<string, unknown> | undefined;
}

/** A provider that writes, then may hang as if its worker died before the write was recorded. */
function createRecordingProvider(options: { metadataFilter: boolean }) {
  const written: Written[] = [];
  let hangAfterWrite = false;
  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key: 'recording',
    capabilities: { metadataFilter: options.metadataFilter },
    async capture(request) {
      const record = { id: `w-${written.length + 1}`, text: request.payload.text ?? '', scope: request.scope, metadata: request.metadata };
      written.push(record);
      if (hangAfterWrite) await new Promise<never>(() => undefined);
      return { records: [{ providerKey: 'recording', providerRecordId: record.id }] };
    },
    upsertRecords: async () => ({}),
    query: async () => ({ snippets: [] }),
    async list(request) {
      const filter = request.metadataFilter ?? {};
      const items = written
        .filter((record) => Object.entries(filter).every(([key, value]) => record.metadata?.[key] === value))
        .map((record) => ({ handle: { providerKey: 'recording', providerRecordId: record.id }, text: record.text, scope: record.scope }));
      return { items };
    },
    get: async () => null,
    forget: async () => ({}),
    correct: async () => ({ record: { providerKey: 'recording', providerRecordId: 'x' } }),
    profile: async () => ({ summary: '' }),
    getExtractionJob: async () => ({ job: null }),
    listExtractionJobs: async () => ({ items: [] }),
    retryExtractionJob: async () => ({ job: { providerJobId: 'x', status: 'failed' } }),
    explain: async () => ({ steps: [] }),
  };
  return {
    written,
    hangNextWrites: (value: boolean) => (hangAfterWrite = value),
    factory: { providerId: 'recording', description: 'Records writes (test only).', capabilities: adapter.capabilities, create: () => adapter },
  };
}

const system = { actor: actors.heartbeat, companyId: 'acme' } as const;
const note = { agentId: 'planner', text: 'Backups run at noon.' };

/** Runs a queued manual capture the way a worker does: with the hook id it was queued with. */
const queued = (service: MemoryService, hookId: string) =>
  (service.hooks as unknown as QueueableCaptureHooks).manualCapture(system, note as never, { hookId });

describe('a queued capture delivered twice', () => {
  let service: MemoryService;
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await cleanUp?.();
  });

  async function start(metadataFilter: boolean) {
    const provider = createRecordingProvider({ metadataFilter });
    ({ service, cleanUp } = await createTestService({ providers: [provider.factory], hooks: { timeoutMs: 1000, maxAttempts: 1 } }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'recording');
    return provider;
  }

  it('is written once when the first run finished: the second finds the key written and skips the provider', async () => {
    const provider = await start(true);
    const first = await queued(service, 'hook_queued_1');
    const second = await queued(service, 'hook_queued_1');
    expect(provider.written).toHaveLength(1);
    expect(provider.written[0]?.metadata).toMatchObject({ memplaneDeliveryKey: expect.stringMatching(/^hook_queued_1:bnd_/) });
    expect(first.deliveries[0]).toMatchObject({ status: 'succeeded' });
    expect(second.deliveries[0]).toMatchObject({ status: 'skipped', error: 'written by an earlier run of this queued delivery' });
    expect(second.operationId).toBe(first.operationId);
  });

  it('is written once when the first run died after the provider wrote: the second finds the record by its key', async () => {
    const provider = await start(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    provider.hangNextWrites(true);
    // The first run's worker "dies": its provider call never returns, so nothing records the write.
    const first = queued(service, 'hook_queued_2');
    await vi.advanceTimersByTimeAsync(1000);
    await first;
    provider.hangNextWrites(false);
    const second = await queued(service, 'hook_queued_2');
    expect(provider.written).toHaveLength(1);
    expect(second.deliveries[0]).toMatchObject({ status: 'skipped' });
    const third = await queued(service, 'hook_queued_2');
    expect(third.deliveries[0]).toMatchObject({ status: 'skipped' });
    expect(provider.written).toHaveLength(1);
  });

  it('is captured again (at least once) when the provider cannot look records up by metadata', async () => {
    const provider = await start(false);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    provider.hangNextWrites(true);
    const first = queued(service, 'hook_queued_3');
    await vi.advanceTimersByTimeAsync(1000);
    await first;
    provider.hangNextWrites(false);
    await queued(service, 'hook_queued_3');
    expect(provider.written).toHaveLength(2);
  });

  it('is not affected for direct hooks, which never run twice', async () => {
    const provider = await start(true);
    await service.hooks.manualCapture(system, note);
    await service.hooks.manualCapture(system, note);
    expect(provider.written).toHaveLength(2);
    expect(provider.written.every((record) => record.metadata?.memplaneDeliveryKey === undefined)).toBe(true);
  });
});

describe('a queue whose jobs expire before a delivery can end', () => {
  const expiring = (expiryMs: number) => ({
    kind: 'expiring',
    jobExpiryMs: expiryMs,
    start: async () => undefined,
    enqueue: async () => undefined,
    work: async () => undefined,
    stop: async () => undefined,
  });

  it('is refused with a typed error at start, and so is a subscriber slower than the expiry', async () => {
    await expect(createTestService({ queue: expiring(10_000) })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    await expect(createTestService({ queue: expiring(60_000), hooks: { timeoutMs: 30_000, maxAttempts: 1 } })).rejects.toMatchObject({
      code: 'MEMORY_CONFIGURATION',
    });
    const { service, cleanUp } = await createTestService({ queue: expiring(60_000), hooks: { timeoutMs: 5000, maxAttempts: 2 } });
    try {
      expect(() => service.hooks.subscribe('manual_capture', { name: 'slow', timeoutMs: 30_000, deliver: () => undefined })).toThrow(
        expect.objectContaining({ code: 'MEMORY_CONFIGURATION' }),
      );
      expect(() => service.hooks.subscribe('manual_capture', { name: 'quick', timeoutMs: 1000, deliver: () => undefined })).not.toThrow();
    } finally {
      await cleanUp();
    }
  });
});
