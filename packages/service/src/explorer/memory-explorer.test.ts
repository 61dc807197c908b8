import { InvalidCursorError } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';

describe('explorer', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;

  beforeEach(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'memory');
    const admin = service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'builder-own', providerId: 'memory' });
    await admin.setTarget({ targetType: 'agent', agentId: 'builder' }, 'builder-own');

    const planner = service.runtime(as(actors.planner, { heartbeatRunId: 'run-1' }));
    await planner.upsertRecords({ scope: { agentId: 'planner', issueId: 'ACME-1', projectId: 'billing' }, source: { kind: 'issue', issueId: 'ACME-1' }, records: [{ text: 'a' }] });
    await planner.query({ query: 'a', scope: { agentId: 'planner' } });
    await planner.query({ query: ' ' }).catch(() => undefined);
    const builder = service.runtime(as(actors.builder, { heartbeatRunId: 'run-2' }));
    await builder.upsertRecords({ scope: { agentId: 'builder', runId: 'run-2' }, source: { kind: 'run', runId: 'run-2' }, records: [{ text: 'b' }] });
    await service.runtime(as(actors.scout)).list();
  });
  afterEach(async () => cleanUp());

  const explorer = () => service.explorer(as(actors.acmeAdmin));
  const operations = async (query: Parameters<ReturnType<typeof explorer>['listOperations']>[0]) =>
    (await explorer().listOperations(query)).items.map((entry) => `${entry.operation}:${entry.status}`);

  it('filters the log by agent, issue, project, run, source kind, operation, status, binding and dates', async () => {
    expect(await operations({})).toEqual(['record_upsert:succeeded', 'query:failed', 'query:succeeded', 'record_upsert:succeeded']);
    expect(await operations({ agentId: 'builder' })).toEqual(['record_upsert:succeeded']);
    expect(await operations({ issueId: 'ACME-1' })).toEqual(['record_upsert:succeeded']);
    expect(await operations({ projectId: 'billing' })).toEqual(['record_upsert:succeeded']);
    expect(await operations({ runId: 'run-1' })).toEqual(['query:failed', 'query:succeeded', 'record_upsert:succeeded']);
    expect(await operations({ sourceKind: 'run' })).toEqual(['record_upsert:succeeded']);
    expect(await operations({ operation: 'query' })).toEqual(['query:failed', 'query:succeeded']);
    expect(await operations({ status: 'failed' })).toEqual(['query:failed']);
    expect(await operations({ bindingKey: 'builder-own' })).toEqual(['record_upsert:succeeded']);
    expect(await operations({ bindingKey: 'no-such-binding' })).toEqual([]);
    const all = (await explorer().listOperations()).items;
    const middle = all[2]!.createdAt;
    expect(await operations({ from: middle })).toHaveLength(3);
    expect(await operations({ to: middle })).toHaveLength(1);
    expect((await service.explorer(as(actors.globexAdmin)).listOperations()).items.map((entry) => entry.operation)).toEqual(['list']);
  });

  it('pages with cursors bound to the company and the filter', async () => {
    const first = await explorer().listOperations({ limit: 3 });
    expect(first.items).toHaveLength(3);
    const second = await explorer().listOperations({ limit: 3, cursor: first.nextCursor });
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.items, ...second.items].map((entry) => entry.id)).toEqual((await explorer().listOperations()).items.map((entry) => entry.id));
    await expect(explorer().listOperations({ limit: 3, cursor: first.nextCursor, status: 'failed' })).rejects.toMatchObject({ reason: 'stale' });
    const globex = service.explorer(as(actors.globexAdmin));
    await expect(globex.listOperations({ limit: 3, cursor: first.nextCursor })).rejects.toMatchObject({ reason: 'foreign' });
    await expect(explorer().listOperations({ cursor: 'c1.nonsense.sig' })).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('counts operations per binding', async () => {
    const counts = await explorer().countOperations();
    expect(counts).toEqual([
      expect.objectContaining({ bindingKey: '(unresolved)', total: 1, succeeded: 0, failed: 1 }),
      expect.objectContaining({ bindingKey: 'builder-own', total: 1, succeeded: 1, failed: 0 }),
      expect.objectContaining({ bindingKey: 'default', total: 2, succeeded: 2, failed: 0 }),
    ]);
    expect(counts[2]?.byOperation.map((count) => count.operation)).toEqual(['query', 'record_upsert']);
  });

  it('validates queries, naming the field', async () => {
    await expect(explorer().listOperations({ limit: 0 })).rejects.toMatchObject({ field: 'limit' });
    await expect(explorer().listOperations({ from: 'yesterday' })).rejects.toMatchObject({ field: 'from' });
    await expect(explorer().listOperations({ operation: 'delete' as never })).rejects.toMatchObject({ field: 'operation' });
  });
});
