import { createMemoryAdapter, createMemoryAdapterFaults } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';

describe('metrics from the operation log', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(): Promise<{ service: MemoryService; faults: ReturnType<typeof createMemoryAdapterFaults> }> {
    const faults = createMemoryAdapterFaults();
    const created = await createTestService({
      providers: [{ providerId: 'faulty-memory', description: 'memory with a fault switch', create: () => createMemoryAdapter({ faults }) }],
      operationLog: { retentionFloorDays: 0 },
    });
    cleanUp = created.cleanUp;
    await bindCompanyDefault(created.service, actors.acmeAdmin, 'default', 'faulty-memory');
    const admin = created.service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'builder-notes', providerId: 'memory' });
    await admin.setTarget({ targetType: 'agent', agentId: 'builder' }, 'builder-notes');
    return { service: created.service, faults };
  }

  it('counts recall hits, empty queries, corrections, extraction failures, success, failure and latency per binding', async () => {
    const { service, faults } = await start();
    const planner = service.runtime(as(actors.planner));
    const written = await planner.upsertRecords({ records: [{ text: 'Deploys happen on Tuesdays.' }, { text: 'Backups run at noon.' }] });
    await planner.query({ query: 'deploys' });
    await planner.query({ query: 'backups' });
    await planner.query({ query: 'kubernetes operators' });
    await planner.correct({ handle: written.records![0]!, patch: { text: 'Deploys happen on Wednesdays.', reason: 'moved' } });
    await expect(planner.query({ query: ' ' })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    const heartbeat = service.runtime(as(actors.heartbeat, { companyId: 'acme' }));
    faults.inject({ kind: 'extraction_failure' });
    await heartbeat.capture({ scope: { agentId: 'planner' }, source: { kind: 'run', runId: 'run-1' }, payload: { text: 'Fails to extract.' } });
    faults.reset();
    await heartbeat.refreshExtractionJobs();
    await service.runtime(as(actors.builder)).query({ query: 'anything' });

    const metrics = await service.explorer(as(actors.acmeAdmin)).metrics();
    const [unresolved, notes, main] = metrics.bindings;
    expect(unresolved).toMatchObject({ bindingKey: '(unresolved)', operations: 1, failed: 1, successRate: 0, recallHitRate: null });
    expect(notes).toMatchObject({ bindingKey: 'builder-notes', operations: 1, queries: 1, queryHits: 0, emptyQueries: 1, recallHitRate: 0, emptyQueryRate: 1 });
    expect(main).toMatchObject({
      bindingKey: 'default',
      operations: 7,
      succeeded: 7,
      failed: 0,
      queries: 3,
      queryHits: 2,
      emptyQueries: 1,
      corrections: 1,
      extractionFailures: 1,
      successRate: 1,
      recallHitRate: 2 / 3,
      emptyQueryRate: 1 / 3,
    });
    expect(main!.latencyP50Ms).toBeGreaterThan(0);
    expect(main!.latencyP95Ms).toBeGreaterThanOrEqual(main!.latencyP50Ms);
    expect(metrics.totals).toMatchObject({ operations: 9, succeeded: 8, failed: 1, queries: 4, queryHits: 2, emptyQueries: 2, corrections: 1, extractionFailures: 1 });
    expect(metrics.totals.recallHitRate).toBe(0.5);

    // The same figures come back from the log entries themselves: there is no other counter.
    const log = (await service.explorer(as(actors.acmeAdmin)).listOperations({ bindingKey: 'default', limit: 200 })).items;
    expect(log.filter((entry) => entry.operation === 'query' && (entry.resultCount ?? 0) > 0)).toHaveLength(2);
    expect(log.reduce((total, entry) => total + (entry.extractionFailures ?? 0), 0)).toBe(1);
    const onlyDefault = await service.explorer(as(actors.acmeAdmin)).metrics({ bindingKey: 'default' });
    expect(onlyDefault.bindings.map((row) => row.bindingKey)).toEqual(['default']);
  });

  it('follows the log: pruned operations leave the metrics, other companies never enter them, agents cannot read them', async () => {
    const { service } = await start();
    await service.runtime(as(actors.planner)).query({ query: 'deploys' });
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'memory');
    await service.runtime(as(actors.scout)).query({ query: 'elsewhere' });
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect((await explorer.metrics()).totals.operations).toBe(1);
    // Just after the newest entry: prunes are never in the future.
    const newest = (await explorer.listOperations()).items[0]!.createdAt;
    const pruned = await service.pruneOperationLog(as(actors.acmeAdmin), { before: new Date(Date.parse(newest) + 1).toISOString() });
    expect(pruned.companies).toEqual([{ companyId: 'acme', deleted: 1, deliveryKeysDeleted: 0, operationId: expect.stringMatching(/^op_/) }]);
    expect(await explorer.metrics()).toMatchObject({ bindings: [], totals: { operations: 0, recallHitRate: null } });
    expect((await service.explorer(as(actors.globexAdmin)).metrics()).totals.operations).toBe(1);
    await expect(service.explorer(as(actors.planner)).metrics()).rejects.toBeInstanceOf(MemoryAccessDeniedError);
    await expect(explorer.metrics({ from: 'yesterday' })).rejects.toMatchObject({ field: 'from' });
  });
});
