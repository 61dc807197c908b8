import { defineMemoryAdapter, MemoryApiCallError, type MemoryProviderDefinition } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryQuotaExceededError } from '../errors/memory-quota-exceeded-error';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { recordBytes } from './binding-quota';

/** Rejects records whose text starts with "reject", accepts the rest; throws for "explode". */
function pickyProvider(): MemoryProviderDefinition {
  let next = 0;
  const adapter = defineMemoryAdapter({
    key: 'picky',
    capabilities: {},
    capture: async () => ({}),
    upsertRecords: async (request) => {
      if (request.records.some((record) => record.text === 'explode')) throw new MemoryApiCallError({ message: 'provider down', statusCode: 503 });
      const failures = request.records.flatMap((record, index) =>
        record.text.startsWith('reject') ? [{ index, code: 'MEMORY_VALIDATION', message: 'refused by the provider' }] : [],
      );
      const accepted = request.records.filter((record) => !record.text.startsWith('reject'));
      return { records: accepted.map(() => ({ providerKey: 'picky', providerRecordId: `p-${(next += 1)}` })), failures };
    },
    query: async () => ({ snippets: [] }),
    list: async () => ({ items: [] }),
    get: async () => null,
    forget: async () => ({}),
  });
  return { providerId: 'picky', description: 'Partial failures (test only).', capabilities: {}, create: () => adapter };
}

describe('binding quotas', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(providerId: string, quota: { maxRecords?: number; maxBytes?: number }): Promise<{ service: MemoryService; bindingId: string }> {
    const created = await createTestService({ providers: [pickyProvider()] });
    cleanUp = created.cleanUp;
    const binding = await bindCompanyDefault(created.service, actors.acmeAdmin, 'default', providerId, { quota });
    return { service: created.service, bindingId: binding.id };
  }

  it('refuses a write over the records cap whole, with a typed error, before the provider sees it', async () => {
    const { service, bindingId } = await start('memory', { maxRecords: 3 });
    const memory = service.runtime(as(actors.planner));
    await memory.upsertRecords({ records: [{ text: 'one' }, { text: 'two' }] });
    const refused = memory.upsertRecords({ records: [{ text: 'three' }, { text: 'four' }] });
    await expect(refused).rejects.toBeInstanceOf(MemoryQuotaExceededError);
    await expect(refused).rejects.toMatchObject({
      code: 'MEMORY_VALIDATION',
      field: 'records',
      bindingKey: 'default',
      quota: 'records',
      limit: 3,
      used: 2,
      requested: 2,
      isRetryable: false,
    });
    expect((await memory.list()).items.map((item) => item.text).sort()).toEqual(['one', 'two']);
    expect(await service.store.getBindingUsage('acme', bindingId)).toEqual({ records: 2, bytes: 6 });
    const [failed] = (await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' })).items;
    expect(failed).toMatchObject({ operation: 'record_upsert', errorCode: 'MEMORY_VALIDATION', bindingKey: 'default' });
    expect(failed?.errorMessage).toContain('cap of 3 records');
  });

  it('counts bytes as UTF-8 text, summary and metadata, and refuses what would pass the bytes cap', async () => {
    const record = { text: 'Déploiement mardi', summary: 'déploiement', metadata: { team: 'ops' } };
    expect(recordBytes(record)).toBe(Buffer.byteLength('Déploiement mardi') + Buffer.byteLength('déploiement') + '{"team":"ops"}'.length);
    const { service, bindingId } = await start('memory', { maxBytes: 60 });
    const memory = service.runtime(as(actors.planner));
    await memory.upsertRecords({ records: [record] });
    await expect(memory.upsertRecords({ records: [{ text: 'x'.repeat(20) }] })).rejects.toMatchObject({
      quota: 'bytes',
      limit: 60,
      used: recordBytes(record),
      requested: 20,
    });
    expect(await service.store.getBindingUsage('acme', bindingId)).toEqual({ records: 1, bytes: recordBytes(record) });
  });

  it('frees what forgotten records held, counts only what the provider accepted, and releases a failed write', async () => {
    const { service, bindingId } = await start('picky', { maxRecords: 3 });
    const memory = service.runtime(as(actors.planner));
    const partial = await memory.upsertRecords({ records: [{ text: 'keep a' }, { text: 'reject b' }, { text: 'keep c' }] });
    expect(partial.failures).toEqual([expect.objectContaining({ index: 1 })]);
    expect(await service.store.getBindingUsage('acme', bindingId)).toEqual({ records: 2, bytes: 12 });
    await expect(memory.upsertRecords({ records: [{ text: 'explode' }] })).rejects.toMatchObject({ code: 'MEMORY_API_CALL' });
    expect(await service.store.getBindingUsage('acme', bindingId)).toEqual({ records: 2, bytes: 12 });
    await expect(memory.upsertRecords({ records: [{ text: 'd' }, { text: 'e' }] })).rejects.toBeInstanceOf(MemoryQuotaExceededError);
    await memory.forget({ handles: [partial.records![0]!] });
    expect(await service.store.getBindingUsage('acme', bindingId)).toEqual({ records: 1, bytes: 6 });
    await memory.upsertRecords({ records: [{ text: 'd' }, { text: 'e' }] });
    expect(await service.store.getBindingUsage('acme', bindingId)).toEqual({ records: 3, bytes: 8 });
  });

  it('admits exactly what fits when writes race for the last places', async () => {
    const { service, bindingId } = await start('memory', { maxRecords: 5 });
    const memory = service.runtime(as(actors.planner));
    const outcomes = await Promise.allSettled(Array.from({ length: 9 }, (_, index) => memory.upsertRecords({ records: [{ text: `note ${index}` }] })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    expect((await memory.list()).items).toHaveLength(5);
    expect(await service.store.getBindingUsage('acme', bindingId)).toMatchObject({ records: 5 });
  });

  it('holds captures to the caps too', async () => {
    const { service } = await start('memory', { maxRecords: 1, maxBytes: 100 });
    const heartbeat = service.runtime(as(actors.heartbeat, { companyId: 'acme' }));
    const source = { kind: 'manual_note' as const };
    await heartbeat.capture({ source, payload: { text: 'First note.' }, mode: 'capture_record' });
    await expect(heartbeat.capture({ source, payload: { text: 'Second note.' }, mode: 'capture_record' })).rejects.toMatchObject({ quota: 'records', field: 'payload' });
    await expect(heartbeat.capture({ source, payload: { text: 'y'.repeat(200) } })).rejects.toMatchObject({ quota: 'bytes' });
    await heartbeat.capture({ source, payload: { text: 'Residue to extract later.' } });
  });

  it('counts writes to a binding without caps in batches, in the store before a forget, a cap or a flush reads them', async () => {
    const created = await createTestService();
    cleanUp = created.cleanUp;
    const { service } = created;
    const binding = await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const memory = service.runtime(as(actors.planner));
    await memory.upsertRecords({ records: [{ text: 'one' }, { text: 'two' }] });
    await memory.upsertRecords({ records: [{ text: 'three' }] });
    await service.flush();
    expect(await service.store.getBindingUsage('acme', binding.id)).toEqual({ records: 3, bytes: 11 });
    const added = await memory.upsertRecords({ records: [{ text: 'four' }] });
    await memory.forget({ handles: added.records! });
    await service.flush();
    expect(await service.store.getBindingUsage('acme', binding.id)).toEqual({ records: 3, bytes: 11 });
    // A cap set now starts from everything written so far, the write still queued included.
    await memory.upsertRecords({ records: [{ text: 'five' }] });
    await service.control(as(actors.acmeAdmin)).updateBinding('default', { quota: { maxRecords: 4 } });
    await expect(memory.upsertRecords({ records: [{ text: 'six' }] })).rejects.toMatchObject({ quota: 'records', used: 4 });
  });

  it('sets, changes and removes caps through the control plane, validated', async () => {
    const created = await createTestService();
    cleanUp = created.cleanUp;
    const admin = created.service.control(as(actors.acmeAdmin));
    const binding = await admin.createBinding({ key: 'capped', providerId: 'memory', quota: { maxRecords: 10 } });
    expect(binding.quota).toEqual({ maxRecords: 10 });
    expect((await admin.updateBinding('capped', { quota: { maxBytes: 5000 } })).quota).toEqual({ maxBytes: 5000 });
    expect((await admin.updateBinding('capped', { hooks: { postRunCapture: true } })).quota).toEqual({ maxBytes: 5000 });
    const uncapped = await admin.updateBinding('capped', { quota: null });
    expect(uncapped.quota).toBeUndefined();
    expect((await admin.getBinding('capped'))?.quota).toBeUndefined();
    await expect(admin.createBinding({ key: 'bad', providerId: 'memory', quota: {} })).rejects.toMatchObject({ field: 'quota' });
    await expect(admin.createBinding({ key: 'bad', providerId: 'memory', quota: { maxRecords: -1 } })).rejects.toMatchObject({ field: 'quota.maxRecords' });
  });
});
