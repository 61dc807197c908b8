import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import { createMemoryService } from '../service/create-memory-service';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { actors, as, bindCompanyDefault, createTestService, testProviders } from '../test-support/service-test-support';

/** A clock that reads `start` plus one second per reading. */
const clockFrom = (start: string) => {
  let tick = 0;
  return () => new Date(Date.parse(start) + (tick += 1) * 1000);
};

describe('operation log retention', () => {
  const directories: string[] = [];
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanUp?.();
    cleanUp = undefined;
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('prunes what is older than the window and logs the prune, with who, the cut and the count', async () => {
    const created = await createTestService({ operationLog: { retentionDays: 7, retentionFloorDays: 0 } });
    cleanUp = created.cleanUp;
    const { service } = created;
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await service.runtime(as(actors.planner)).list();
    await service.runtime(as(actors.planner)).list();
    // Just after the newest entry, never in the future.
    const newest = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items[0]!.createdAt;
    const before = new Date(Date.parse(newest) + 1).toISOString();
    const report = await service.pruneOperationLog(as(actors.acmeAdmin), { before });
    expect(report).toEqual({ before, companies: [{ companyId: 'acme', deleted: 2, deliveryKeysDeleted: 0, operationId: expect.stringMatching(/^op_/) }] });
    const log = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(log).toEqual([
      expect.objectContaining({
        id: report.companies[0]!.operationId,
        operation: 'retention_prune',
        status: 'succeeded',
        actor: { kind: 'company', id: 'admin' },
        resultCount: 2,
        details: { before },
      }),
    ]);
    // Within the window (7 days before the service clock) nothing is old enough.
    const windowed = await service.pruneOperationLog(as(actors.acmeAdmin));
    expect(windowed.companies).toEqual([{ companyId: 'acme', deleted: 0, deliveryKeysDeleted: 0, operationId: expect.any(String) }]);
    expect(Date.parse(windowed.before)).toBeLessThan(Date.parse('2026-11-01T00:00:00Z') - 6 * 24 * 3600 * 1000);
    await expect(service.pruneOperationLog(as(actors.planner), { before })).rejects.toBeInstanceOf(MemoryAccessDeniedError);
    await expect(service.pruneOperationLog(as(actors.acmeAdmin), { before: 'soon' })).rejects.toMatchObject({ field: 'before' });
  });

  it('deletes the idempotency keys of queued deliveries with the log of their writes, and counts them', async () => {
    const created = await createTestService({ operationLog: { retentionFloorDays: 0 } });
    cleanUp = created.cleanUp;
    const { service } = created;
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const system = as(actors.heartbeat, { companyId: 'acme' });
    const { hookId } = await service.hooks.enqueue('manual_capture', system, { agentId: 'planner', text: 'Backups run at noon.' });
    await service.whenIdle();
    const binding = (await service.control(as(actors.acmeAdmin)).listBindings())[0]!;
    const deliveryKey = `${hookId}:${binding.id}`;
    // The queued write left its key; a prune before it keeps it.
    const early = await service.pruneOperationLog(as(actors.acmeAdmin), { before: '2026-10-01T00:00:00.000Z' });
    expect(early.companies).toEqual([expect.objectContaining({ deliveryKeysDeleted: 0 })]);
    const newest = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items[0]!.createdAt;
    const before = new Date(Date.parse(newest) + 1).toISOString();
    const report = await service.pruneOperationLog(as(actors.acmeAdmin), { before });
    expect(report.companies).toEqual([expect.objectContaining({ companyId: 'acme', deliveryKeysDeleted: 1 })]);
    expect((await service.control(as(actors.acmeAdmin)).listActivity()).items[0]).toMatchObject({
      action: 'log.pruned',
      after: { before, deliveryKeysDeleted: 1 },
    });
    // Gone: the key reads as new again.
    expect(await service.store.claimDelivery('acme', deliveryKey, before)).toEqual({ state: 'new' });
  });

  it('needs a window or a cut', async () => {
    const created = await createTestService();
    cleanUp = created.cleanUp;
    await expect(created.service.pruneOperationLog(as(actors.acmeAdmin))).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
  });

  it('lets a worker apply the window to every company on its own, logging each prune in its company', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'memplane-retention-'));
    directories.push(directory);
    const filename = join(directory, 'service.db');
    const october = await createMemoryService({ store: createSqliteMemoryServiceStore({ filename }), providers: testProviders, now: clockFrom('2026-10-01T00:00:00Z') });
    await bindCompanyDefault(october, actors.acmeAdmin, 'default', 'memory');
    await bindCompanyDefault(october, actors.globexAdmin, 'default', 'memory');
    await october.runtime(as(actors.planner)).list();
    await october.runtime(as(actors.scout)).list();
    await october.close();

    const november = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename }),
      providers: testProviders,
      now: clockFrom('2026-11-01T00:00:00Z'),
      operationLog: { retentionDays: 14 },
    });
    cleanUp = () => november.close();
    await november.runtime(as(actors.planner)).list();
    // The worker queued a retention pass when it started; wait for it.
    await november.whenIdle();
    const acme = (await november.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(acme.map((entry) => entry.operation).sort()).toEqual(['list', 'retention_prune']);
    expect(acme.find((entry) => entry.operation === 'retention_prune')).toMatchObject({
      actor: { kind: 'system', id: 'retention' },
      resultCount: 1,
      details: { retentionDays: 14 },
    });
    const globex = (await november.explorer(as(actors.globexAdmin)).listOperations()).items;
    expect(globex).toEqual([expect.objectContaining({ operation: 'retention_prune', resultCount: 1 })]);
  });
});
