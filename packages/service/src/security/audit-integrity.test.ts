import { MemoryValidationError } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { MemoryService } from '../service/create-memory-service';
import type { MemoryServiceSettings } from '../service/memory-service-settings';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';

const dayMs = 24 * 3600 * 1000;

describe('an audit trail no one can rewrite', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanUp?.();
    cleanUp = undefined;
  });
  async function start(settings: MemoryServiceSettings = {}): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('refuses a prune in the future or inside the retention floor, whoever asks, and deletes nothing', async () => {
    // The clock is fixed at 2026-11-01; the log holds entries of that day.
    const service = await start({ now: () => new Date('2026-11-01T12:00:00Z'), operationLog: { retentionFloorDays: 30 } });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await service.runtime(as(actors.planner)).list();
    await service.runtime(as(actors.planner)).list();
    const operator = as(actors.acmeOperator, { companyId: 'acme' });
    for (const context of [as(actors.acmeAdmin), operator, as(actors.heartbeat, { companyId: 'acme' })]) {
      for (const before of ['2030-01-01T00:00:00Z', '2026-11-01T12:00:01Z', '2026-11-01T11:59:59Z', new Date(Date.parse('2026-11-01T12:00:00Z') - 29 * dayMs).toISOString()]) {
        const error = await service.pruneOperationLog(context, { before }).then(() => undefined, (thrown: unknown) => thrown);
        expect(MemoryValidationError.isInstance(error), `${context.actor.kind} pruning before ${before}`).toBe(true);
        expect(error).toMatchObject({ field: 'before' });
      }
    }
    const log = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(log.map((entry) => entry.operation)).toEqual(['list', 'list']);
  });

  it('lets only admins, operators and the system prune, and records every prune with its count in the activity log', async () => {
    const service = await start({ operationLog: { retentionFloorDays: 0 } });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await service.runtime(as(actors.planner)).list();
    const newest = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items[0]!.createdAt;
    const before = new Date(Date.parse(newest) + 1).toISOString();
    const member = { kind: 'company', companyId: 'acme', userId: 'intern' } as const;
    for (const context of [as(actors.planner), as(actors.acmeMember), as(member), as(actors.globexAdmin, { companyId: 'acme' })]) {
      await expect(service.pruneOperationLog(context, { before })).rejects.toBeInstanceOf(MemoryAccessDeniedError);
    }
    expect((await service.explorer(as(actors.acmeAdmin)).listOperations()).items).toHaveLength(1);
    const report = await service.pruneOperationLog(as(actors.acmeAdmin), { before });
    expect(report.companies).toEqual([{ companyId: 'acme', deleted: 1, deliveryKeysDeleted: 0, operationId: expect.any(String) }]);
    const activity = (await service.control(as(actors.acmeAdmin)).listActivity()).items;
    expect(activity[0]).toMatchObject({
      action: 'log.pruned',
      actor: { kind: 'company', id: 'admin' },
      subjectType: 'operation_log',
      after: { before, deleted: 1, operationId: report.companies[0]!.operationId },
    });
  });

  it('refuses a retention window below the floor', async () => {
    await expect(start({ operationLog: { retentionDays: 1 } })).rejects.toMatchObject({ field: 'settings.operationLog.retentionDays' });
  });

  it('lets only operators register or replace a provider, and logs it', async () => {
    const service = await start();
    const plugin = { providerId: 'acme-kb', description: 'Acme knowledge base', create: () => createMemoryAdapter() };
    const register = (context: unknown, options?: unknown) =>
      Promise.resolve().then(() => (service.providers.register as (...values: unknown[]) => unknown)(context, plugin, options));
    for (const context of [as(actors.acmeAdmin), as(actors.planner), as(actors.acmeOperator, { companyId: 'globex' })]) {
      await expect(register(context, { replace: true })).rejects.toBeInstanceOf(MemoryAccessDeniedError);
    }
    // Replacing a configured provider, the way a plugin would hijack every binding of it.
    const hijack = { ...plugin, providerId: 'memory' };
    await expect(Promise.resolve().then(() => (service.providers.register as (...values: unknown[]) => unknown)(as(actors.acmeAdmin), hijack, { replace: true }))).rejects.toBeInstanceOf(
      MemoryAccessDeniedError,
    );
    await expect(register(undefined)).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    expect(service.providers.list().find((entry) => entry.providerId === 'acme-kb')).toBeUndefined();
    expect(service.providers.list().find((entry) => entry.providerId === 'memory')?.origin).toBe('configured');

    const operator = as(actors.acmeOperator, { companyId: 'acme' });
    await service.providers.register(operator, plugin);
    await service.providers.register(operator, { ...plugin, description: 'Acme knowledge base v2' }, { replace: true });
    const activity = (await service.control(as(actors.acmeAdmin)).listActivity()).items;
    expect(activity.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'provider.replaced',
        actor: { kind: 'operator', id: 'ops-1' },
        subjectType: 'provider',
        subjectId: 'acme-kb',
        before: { providerId: 'acme-kb', description: 'Acme knowledge base' },
        after: { providerId: 'acme-kb', description: 'Acme knowledge base v2' },
      }),
      expect.objectContaining({ action: 'provider.registered', before: null, after: { providerId: 'acme-kb', description: 'Acme knowledge base' } }),
    ]);
  });

  it('never renames a binding key', async () => {
    const service = await start();
    const admin = service.control(as(actors.acmeAdmin));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const error = await admin.updateBinding('default', { key: 'renamed' }).then(() => undefined, (thrown: unknown) => thrown);
    expect(MemoryValidationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ field: 'key' });
    expect(await admin.getBinding('renamed')).toBeUndefined();
    expect(await admin.getBinding('default')).toMatchObject({ key: 'default', revision: 1 });
    // The same key is no change.
    await expect(admin.updateBinding('default', { key: 'default', enabled: true })).resolves.toMatchObject({ key: 'default', revision: 2 });
  });
});
