import { defineMemoryAdapter, MemoryApiCallError, UnsupportedCapabilityError, type MemoryAdapter, type MemoryProviderDefinition } from '@memplane/core';
import { createMemoryAdapter, createMemoryAdapterFaults } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import type { MemoryCostEvent } from './usage-attribution';

function billedProvider(): MemoryProviderDefinition {
  const adapter = defineMemoryAdapter({
    key: 'billed',
    capabilities: {},
    capture: async () => ({}),
    upsertRecords: async (request) => ({
      records: request.records.map((_, index) => ({ providerKey: 'billed', providerRecordId: `b-${index}` })),
      usage: [{ provider: 'billed', attributionMode: 'billed_directly', billingType: 'metered_api', embeddingTokens: 42, costCents: 0.3, raw: { tokens: 42 } }],
    }),
    query: async () => ({ snippets: [] }),
    list: async () => ({ items: [] }),
    get: async () => null,
    forget: async () => {
      throw new TypeError('plugin bug');
    },
  });
  return { providerId: 'billed', description: 'Reports metered usage (test only).', capabilities: {}, create: () => adapter };
}

describe('runtime operations', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: Parameters<typeof createTestService>[0] = {}): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('logs every operation with binding, scope, source, hook, usage, attribution and run, failures included', async () => {
    const service = await start();
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const memory = service.runtime(as(actors.planner, { heartbeatRunId: 'run-7' }));
    const written = await memory.upsertRecords({
      scope: { agentId: 'planner', issueId: 'ACME-1' },
      source: { kind: 'issue_comment', issueId: 'ACME-1', commentId: 'c-1' },
      records: [{ text: 'Deploys happen on Tuesdays.' }],
    });
    await expect(memory.query({ query: '   ' })).rejects.toMatchObject({ field: 'query' });
    const explorer = service.explorer(as(actors.acmeAdmin));
    const [failed, succeeded] = (await explorer.listOperations()).items;
    expect(succeeded).toMatchObject({
      id: written.operationId,
      companyId: 'acme',
      bindingKey: 'default',
      providerId: 'memory',
      operation: 'record_upsert',
      status: 'succeeded',
      actor: { kind: 'agent', id: 'planner' },
      scope: { companyId: 'acme', agentId: 'planner', issueId: 'ACME-1' },
      source: { kind: 'issue_comment', companyId: 'acme', issueId: 'ACME-1', commentId: 'c-1' },
      heartbeatRunId: 'run-7',
      attributionMode: 'included_in_run',
      usage: [expect.objectContaining({ provider: 'memory', latencyMs: expect.any(Number) })],
      recordIds: [written.records?.[0]?.providerRecordId],
      resultCount: 1,
      droppedOutOfScope: 0,
      details: { records: 1 },
    });
    expect(succeeded?.latencyMs).toBeGreaterThan(0);
    expect(failed).toMatchObject({ operation: 'query', status: 'failed', errorCode: 'MEMORY_VALIDATION', companyId: 'acme', heartbeatRunId: 'run-7' });
    expect(failed?.bindingKey).toBeUndefined();
    expect(JSON.stringify(await explorer.listOperations())).not.toContain('Tuesdays');
  });

  it('resolves through the calling agent, or the agent the scope names, or the company default', async () => {
    const service = await start();
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const admin = service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'builder-own', providerId: 'memory' });
    await admin.setTarget({ targetType: 'agent', agentId: 'builder' }, 'builder-own');
    expect((await service.runtime(as(actors.builder)).list()).bindingKey).toBe('builder-own');
    expect((await service.runtime(as(actors.planner)).list()).bindingKey).toBe('default');
    expect((await service.runtime(as(actors.acmeAdmin)).list({ scope: { agentId: 'builder' } })).bindingKey).toBe('builder-own');
    // An agent reads as itself: naming another agent is refused (see agent-identity.test.ts).
    await expect(service.runtime(as(actors.planner)).list({ scope: { agentId: 'builder' } })).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    expect((await service.runtime(as(actors.acmeAdmin)).list()).bindingKey).toBe('default');
    expect((await service.runtime(as(actors.builder)).list({ bindingKey: 'default' })).bindingKey).toBe('default');
  });

  it('attributes work inside a heartbeat run to the run, and records a cost event for directly billed usage', async () => {
    const costEvents: MemoryCostEvent[] = [];
    const service = await start({
      providers: [billedProvider()],
      recordCostEvent: (event) => {
        costEvents.push(event);
        return `cost-${costEvents.length}`;
      },
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'billed');
    const inRun = await service.runtime(as(actors.planner, { heartbeatRunId: 'run-1' })).query({ query: 'anything' });
    const billed = await service.runtime(as(actors.planner)).upsertRecords({ scope: { agentId: 'planner' }, records: [{ text: 'x' }] });
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect(await explorer.getOperation(inRun.operationId)).toMatchObject({ attributionMode: 'included_in_run', heartbeatRunId: 'run-1' });
    const billedEntry = await explorer.getOperation(billed.operationId);
    expect(billedEntry).toMatchObject({ attributionMode: 'billed_directly', costEventId: expect.stringMatching(/^cost_/) });
    expect(costEvents).toEqual([
      {
        costEventId: billedEntry?.costEventId,
        operationId: billed.operationId,
        companyId: 'acme',
        agentId: 'planner',
        bindingKey: 'default',
        providerId: 'billed',
        usage: [expect.objectContaining({ embeddingTokens: 42, costCents: 0.3, raw: { tokens: 42 } })],
      },
    ]);
    const given = await service.runtime(as(actors.planner, { costEventId: 'host-cost-9' })).upsertRecords({ records: [{ text: 'y' }] });
    expect(await explorer.getOperation(given.operationId)).toMatchObject({ costEventId: 'host-cost-9' });
    expect(costEvents).toHaveLength(1);
  });

  it('turns a provider error outside the hierarchy into a typed error, and logs it', async () => {
    const service = await start({ providers: [billedProvider()] });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'billed');
    // The record is the planner's (written through the service), so the forget reaches the provider.
    await service.runtime(as(actors.planner)).upsertRecords({ records: [{ text: 'x' }] });
    const forget = service.runtime(as(actors.planner)).forget({ handles: [{ providerKey: 'billed', providerRecordId: 'b-0' }] });
    await expect(forget).rejects.toBeInstanceOf(MemoryApiCallError);
    await expect(forget).rejects.toThrow('Provider billed failed: plugin bug');
    await expect(service.runtime(as(actors.planner)).correct({ handle: { providerKey: 'billed', providerRecordId: 'b-0' }, patch: { text: 'z' } })).rejects.toBeInstanceOf(
      UnsupportedCapabilityError,
    );
    const failed = (await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' })).items.map((entry) => entry.errorCode);
    expect(failed).toEqual(['MEMORY_UNSUPPORTED_CAPABILITY', 'MEMORY_API_CALL']);
  });

  it('keeps extraction jobs, refreshes them from the provider and retries failed ones', async () => {
    const faults = createMemoryAdapterFaults();
    const service = await start({
      providers: [{ providerId: 'faulty-memory', description: 'memory with a fault switch', create: () => createMemoryAdapter({ faults }) }],
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'faulty-memory');
    const memory = service.runtime(as(actors.heartbeat, { companyId: 'acme' }));
    const capture = (text: string) =>
      memory.capture({ scope: { agentId: 'planner' }, source: { kind: 'run', runId: 'run-1' }, payload: { text } });
    const good = await capture('The staging database is rebuilt nightly. Backups run at noon.');
    faults.inject({ kind: 'extraction_failure' });
    const doomed = await capture('This capture fails to extract.');
    faults.reset();
    const stored = await memory.listExtractionJobs();
    expect(stored.items.map((job) => [job.status, job.operationId])).toEqual([
      ['queued', doomed.operationId],
      ['queued', good.operationId],
    ]);
    expect(stored.items[0]).toMatchObject({ bindingKey: 'default', scope: { companyId: 'acme', agentId: 'planner' }, source: { kind: 'run', runId: 'run-1' } });

    // The memory adapter fails a job submitted under the fault at its first poll.
    const first = await memory.refreshExtractionJobs();
    expect(first.jobs.map((job) => [job.operationId, job.status])).toEqual([
      [doomed.operationId, 'failed'],
      [good.operationId, 'running'],
    ]);
    const failedJob = first.jobs[0]!;
    expect(failedJob.error).toContain('extraction_failure');
    const retried = await memory.retryExtractionJob({ jobId: failedJob.id });
    expect(retried.job).toMatchObject({ id: failedJob.id, status: 'queued', retryCount: 1 });
    expect(retried.job.error).toBeUndefined();
    expect((await memory.refreshExtractionJobs()).jobs.map((job) => job.status)).toEqual(['running', 'succeeded']);
    const last = await memory.refreshExtractionJobs();
    expect(last.jobs.map((job) => job.status)).toEqual(['succeeded']);
    expect(last.receipts).toEqual([expect.objectContaining({ bindingKey: 'default', providerId: 'faulty-memory' })]);
    expect((await memory.refreshExtractionJobs()).receipts).toEqual([]);
    const recalled = await memory.query({ query: 'staging database' });
    expect(recalled.snippets.map((snippet) => snippet.text)).toContain('The staging database is rebuilt nightly.');
    const providerPage = await memory.listProviderExtractionJobs();
    expect(providerPage.items.map((job) => job.status)).toEqual(['succeeded', 'succeeded']);
    expect((await service.explorer(as(actors.acmeAdmin)).listExtractionJobs({ statuses: ['succeeded'] })).items).toHaveLength(2);
  });

  it('rebuilds an adapter when its config changes, not when only its hooks or flag change', async () => {
    const built: MemoryAdapter[] = [];
    const service = await start({
      providers: [
        {
          providerId: 'counting',
          description: 'counts builds',
          create: (config) => {
            const adapter = createMemoryAdapter(config);
            built.push(adapter);
            return adapter;
          },
        },
      ],
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'counting');
    const memory = service.runtime(as(actors.planner));
    await memory.upsertRecords({ records: [{ text: 'Kept across hook changes.' }] });
    const admin = service.control(as(actors.acmeAdmin));
    await admin.updateBinding('default', { hooks: { postRunCapture: true }, enabled: true });
    expect((await memory.list()).items.map((item) => item.text)).toEqual(['Kept across hook changes.']);
    await admin.updateBinding('default', { config: { timeoutMs: 5000 } });
    expect((await memory.list()).items).toEqual([]);
    // The adapter built to read the capabilities when the binding is saved is the one used afterwards.
    expect(built).toHaveLength(2);
  });

  it('writes the log in batches, and every read of the explorer sees every finished operation', async () => {
    const service = await start({ operationLog: { batchSize: 3 } });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const memory = service.runtime(as(actors.planner));
    await memory.list();
    await memory.list();
    expect(service.metrics()).toMatchObject({ pendingLogEntries: 2, loggedOperations: 0 });
    await memory.list();
    expect(service.metrics()).toMatchObject({ pendingLogEntries: 0, loggedOperations: 3 });
    await memory.list();
    expect((await service.explorer(as(actors.acmeAdmin)).listOperations()).items).toHaveLength(4);
    expect(service.metrics()).toMatchObject({ operations: 4, failedOperations: 0, pendingLogEntries: 0, loggedOperations: 4 });
  });
});
