import { defineMemoryAdapter, type MemoryExtractionJob, type MemoryProviderDefinition } from '@memplane/core';
import { createMemoryAdapter, createMemoryAdapterFaults } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createInProcessJobQueue } from './in-process-job-queue';
import type { MemoryJobQueue } from './memory-job-queue';

/**
 * A queue that runs every hook delivery job a second time after it finished, as a durable queue
 * does when the worker that ran it died before marking it done.
 */
function redeliveringQueue(): MemoryJobQueue {
  const inner = createInProcessJobQueue();
  return {
    ...inner,
    kind: 'redelivering',
    work(handlers, options) {
      const deliver = handlers.hook_delivery;
      return inner.work(
        {
          ...handlers,
          ...(deliver === undefined
            ? {}
            : {
                async hook_delivery(job) {
                  await deliver(job);
                  await deliver({ ...job, attempt: job.attempt + 1 });
                },
              }),
        },
        options,
      );
    },
  };
}

/** A provider whose extraction jobs stay running forever. */
function neverFinishing(): MemoryProviderDefinition {
  const job = (providerJobId: string): MemoryExtractionJob => ({ providerJobId, status: 'running' });
  const adapter = defineMemoryAdapter({
    key: 'slow',
    capabilities: { asyncExtraction: true },
    capture: async () => ({ jobs: [{ providerJobId: 'slow-1', status: 'queued' }] }),
    upsertRecords: async () => ({ records: [] }),
    query: async () => ({ snippets: [] }),
    list: async () => ({ items: [] }),
    get: async () => null,
    forget: async () => ({}),
    getExtractionJob: async (providerJobId) => ({ job: job(providerJobId) }),
  });
  return { providerId: 'slow', description: 'Jobs never finish (test only).', capabilities: { asyncExtraction: true }, create: () => adapter };
}

describe('background work', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: Parameters<typeof createTestService>[0] = {}): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('delivers a queued capture hook in the background, under the hook id it was queued with', async () => {
    const service = await start();
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory', { hooks: { postRunCapture: true } });
    const system = as(actors.heartbeat, { companyId: 'acme' });
    const queued = await service.hooks.enqueue('post_run_capture', system, {
      agentId: 'planner',
      heartbeatRunId: 'run-5',
      output: { text: 'The deploy moved to Wednesday.' },
    });
    expect(queued).toEqual({ hookId: expect.stringMatching(/^hook_/), jobId: expect.any(String), companyId: 'acme' });
    await service.whenIdle();
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect((await explorer.listHookDeliveries({ hookId: queued.hookId })).items).toEqual([
      expect.objectContaining({ hookKind: 'post_run_capture', receiver: 'binding:default', status: 'succeeded', operationId: expect.any(String) }),
    ]);
    expect((await explorer.listOperations({ operation: 'capture' })).items).toEqual([
      expect.objectContaining({ hookKind: 'post_run_capture', hookId: queued.hookId, heartbeatRunId: 'run-5' }),
    ]);
  });

  it('checks a queued hook when it is queued: bad input and refused callers throw at once', async () => {
    const service = await start();
    const system = as(actors.heartbeat, { companyId: 'acme' });
    await expect(service.hooks.enqueue('manual_capture', system, { text: '' })).rejects.toMatchObject({ field: 'input.text' });
    await expect(service.hooks.enqueue('pre_run_hydrate' as never, system, { agentId: 'a', query: 'q' } as never)).rejects.toMatchObject({ field: 'hookKind' });
    await expect(service.hooks.enqueue('manual_capture', as(actors.planner), { text: 'x' })).rejects.toBeInstanceOf(MemoryAccessDeniedError);
  });

  it('delivers a queued hook once even when the queue runs its job again', async () => {
    const service = await start({ queue: redeliveringQueue() });
    await service.startWorker();
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const queued = await service.hooks.enqueue('manual_capture', as(actors.acmeAdmin), { agentId: 'planner', text: 'Backups run at noon.' });
    await service.whenIdle();
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect((await explorer.listHookDeliveries({ hookId: queued.hookId })).items).toHaveLength(1);
    expect((await explorer.listOperations({ operation: 'capture' })).items).toHaveLength(1);
    expect((await service.runtime(as(actors.planner)).list()).items.map((item) => item.text)).toEqual(['Backups run at noon.']);
  });

  it('polls pending extraction jobs until they finish, logging each poll and any failure', async () => {
    const faults = createMemoryAdapterFaults();
    const service = await start({
      extractionPolling: { delayMs: 0 },
      providers: [{ providerId: 'faulty-memory', description: 'memory with a fault switch', create: () => createMemoryAdapter({ faults }) }],
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'faulty-memory');
    const heartbeat = service.runtime(as(actors.heartbeat, { companyId: 'acme' }));
    await heartbeat.capture({ scope: { agentId: 'planner' }, source: { kind: 'run', runId: 'run-1' }, payload: { text: 'The staging database is rebuilt nightly.' } });
    // The first job finishes before the fault is switched on, however many turns the capture took.
    await service.whenIdle();
    faults.inject({ kind: 'extraction_failure' });
    await heartbeat.capture({ scope: { agentId: 'planner' }, source: { kind: 'run', runId: 'run-2' }, payload: { text: 'This one fails.' } });
    faults.reset();
    await service.whenIdle();
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect((await explorer.listExtractionJobs()).items.map((job) => job.status)).toEqual(['failed', 'succeeded']);
    const polls = (await explorer.listOperations({ operation: 'extraction_job_refresh' })).items;
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.every((poll) => poll.actor.kind === 'system' && poll.actor.id === 'extraction-poller')).toBe(true);
    expect(polls.reduce((total, poll) => total + (poll.extractionFailures ?? 0), 0)).toBe(1);
    expect((await explorer.metrics()).totals.extractionFailures).toBe(1);
    expect((await service.runtime(as(actors.planner)).query({ query: 'staging database' })).snippets).toHaveLength(1);
  });

  it('stops polling after maxPolls while jobs stay pending', async () => {
    const service = await start({ extractionPolling: { delayMs: 0, maxPolls: 3 }, providers: [neverFinishing()] });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'slow');
    await service.runtime(as(actors.heartbeat, { companyId: 'acme' })).capture({ source: { kind: 'run', runId: 'run-1' }, payload: { text: 'x' } });
    await service.whenIdle();
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect((await explorer.listOperations({ operation: 'extraction_job_refresh' })).items).toHaveLength(3);
    expect((await explorer.listExtractionJobs()).items.map((job) => job.status)).toEqual(['running']);
  });
});
