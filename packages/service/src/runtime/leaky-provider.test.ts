import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { createLeakyBackend, leakVariants, type LeakyBackend } from '../test-support/leaky-provider-variants';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools } from '../tools/memory-tools';

const foreignMarker = 'GLOBEX';

describe.each(leakVariants)('a %s provider shared by two companies', (variant) => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  let backend: LeakyBackend;
  let globexHandle: { providerKey: string; providerRecordId: string };

  beforeEach(async () => {
    backend = createLeakyBackend(variant);
    ({ service, cleanUp } = await createTestService({ providers: [backend.factory] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'leaky');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'leaky');
    await service.runtime(as(actors.planner)).upsertRecords({ records: [{ text: 'Acme deploys on Tuesdays.' }] });
    await service.runtime(as(actors.acmeAdmin)).upsertRecords({ source: { kind: 'manual_note' }, records: [{ text: 'Acme shared: standup at nine.' }] });
    const written = await service.runtime(as(actors.globexAdmin)).upsertRecords({
      scope: { agentId: 'scout' },
      source: { kind: 'manual_note' },
      records: [{ text: 'GLOBEX secret: the launch code is 0000.' }],
    });
    globexHandle = written.records![0]!;
    // A record the provider made itself (say, extracted from residue): the service never saw it.
    // A forging provider can pass such a record off as anyone's; that limit is in SECURITY.md.
    if (variant !== 'forged') backend.plant({ text: 'GLOBEX planted: extracted by the provider.', scope: { companyId: 'globex' } });
  });

  afterEach(async () => cleanUp());

  it('still knows the other company\'s records as foreign after it deleted its binding: they live on at the provider', async () => {
    expect(await service.control(as(actors.globexAdmin)).deleteBinding('default')).toBe(true);
    const planner = service.runtime(as(actors.planner));
    const admin = service.runtime(as(actors.acmeAdmin));
    const results = [await planner.query({ query: 'launch code' }), await planner.list(), await admin.list(), await admin.get({ handle: globexHandle })];
    for (const result of results) expect(JSON.stringify(result)).not.toContain(foreignMarker);
  });

  it('removes a registration when forget succeeds, and only the caller\'s own', async () => {
    const planner = service.runtime(as(actors.planner));
    const own = (await planner.upsertRecords({ records: [{ text: 'Acme: to be forgotten.' }] })).records![0]!;
    expect((await service.store.placeRecords('acme', 'leaky', [own.providerRecordId])).own).toHaveLength(1);
    await planner.forget({ handles: [own, globexHandle] });
    expect(await service.store.placeRecords('acme', 'leaky', [own.providerRecordId])).toEqual({ own: [], foreignIds: [] });
    // The other company's handle was never forwarded, and its registration stays.
    expect((await service.store.placeRecords('acme', 'leaky', [globexHandle.providerRecordId])).foreignIds).toEqual([globexHandle.providerRecordId]);
  });

  it('lets no text of the other company reach the caller through any field of any read', async () => {
    const planner = service.runtime(as(actors.planner));
    const admin = service.runtime(as(actors.acmeAdmin));
    const system = { actor: actors.heartbeat, companyId: 'acme' } as const;
    const tools = Object.fromEntries(createMemoryTools(service).map((tool) => [tool.name, tool]));
    const results = [
      await planner.query({ query: 'launch code' }),
      await planner.list(),
      await planner.get({ handle: globexHandle }),
      await planner.profile(),
      await admin.query({ query: 'launch code' }),
      await admin.list(),
      await admin.get({ handle: globexHandle }),
      await admin.profile(),
      await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'launch code' }),
      await tools['memory.search']!.execute({ query: 'launch code' }, as(actors.planner)),
      await tools['memory.list']!.execute({}, as(actors.planner)),
      await tools['memory.get']!.execute({ recordId: `leaky:${globexHandle.providerRecordId}` }, as(actors.planner)),
    ];
    for (const result of results) expect(JSON.stringify(result)).not.toContain(foreignMarker);
    // The caller's own records still come through: the checks drop only what cannot be placed.
    const own = await planner.query({ query: 'deploys' });
    expect(own.snippets.map((snippet) => snippet.text).sort()).toEqual(['Acme deploys on Tuesdays.', 'Acme shared: standup at nine.']);
    const adminPage = await admin.list();
    expect(adminPage.items.map((item) => item.text).sort()).toEqual(['Acme deploys on Tuesdays.', 'Acme shared: standup at nine.']);
  });

  it('counts every record it could not place, and says so in warnings', async () => {
    const before = service.metrics().droppedOutOfScope;
    const bundle = await service.runtime(as(actors.acmeAdmin)).query({ query: 'anything' });
    const expected = variant === 'honest' || variant === 'profile-leak' ? 0 : variant === 'forged' ? 1 : 2;
    expect(service.metrics().droppedOutOfScope - before).toBe(expected);
    expect((bundle.warnings ?? []).filter((warning) => warning.type === 'scope_violation')).toHaveLength(expected);
  });

  it('answers for the other company\'s handle exactly as for one that never existed: not_found, nothing forgotten', async () => {
    const missing = { providerKey: 'leaky', providerRecordId: 'rec-404' };
    // The record the provider made itself for the other company: the service never registered it.
    const planted = backend.records.filter((record) => record.text.startsWith('GLOBEX planted')).map((record) => ({ providerKey: 'leaky', providerRecordId: record.id }));
    const tools = Object.fromEntries(createMemoryTools(service).map((tool) => [tool.name, tool]));
    for (const actor of [actors.planner, actors.acmeAdmin]) {
      const runtime = service.runtime(as(actor));
      // What a caller sees, with the record id and the operation's own id taken out.
      const seen = async (handle: { providerKey: string; providerRecordId: string }, reading: boolean) => {
        const { operationId: _forget, ...forgotten } = await runtime.forget({ handles: [handle] });
        const tool = await tools['memory.forget']!.execute({ recordIds: [`leaky:${handle.providerRecordId}`] }, as(actor));
        const { operationId: _tool, ...told } = tool as { operationId?: string };
        // A get of a registered handle is refused unasked; a record a leaky provider returns unregistered is the read guard's (a dropped record).
        const read = reading ? (({ operationId: _get, ...rest }) => rest)(await runtime.get({ handle })) : undefined;
        return JSON.stringify({ forgotten, told, read }).replaceAll(handle.providerRecordId, '<id>');
      };
      const never = await seen(missing, true);
      expect(never).toContain('"type":"not_found"');
      expect(never).toContain('"forgotten":0');
      expect(never).toContain('Forgot 0 record(s). Skipped 1: 1 not found.');
      expect(never).not.toContain('scope_violation');
      expect(await seen(globexHandle, true)).toBe(never);
      for (const foreign of planted) expect(await seen(foreign, false)).toBe(await seen(missing, false));
    }
    expect(backend.records.find((record) => record.id === globexHandle.providerRecordId)?.text).toBe('GLOBEX secret: the launch code is 0000.');
  });

  it('never forwards a foreign handle to forget or correct, and the other company keeps its record', async () => {
    const planner = service.runtime(as(actors.planner));
    const forgotten = await planner.forget({ handles: [globexHandle] });
    expect(JSON.stringify(forgotten)).not.toContain(foreignMarker);
    await expect(planner.correct({ handle: globexHandle, patch: { text: 'overwritten by acme' } })).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    await expect(
      service.runtime(as(actors.acmeAdmin)).correct({ handle: globexHandle, patch: { text: 'overwritten by acme' } }),
    ).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    expect(backend.handlesSeen.filter((seen) => seen.handle.providerRecordId === globexHandle.providerRecordId)).toEqual([]);
    expect(backend.records.find((record) => record.id === globexHandle.providerRecordId)?.text).toBe('GLOBEX secret: the launch code is 0000.');
    // Its own records the caller can still forget and correct.
    const own = (await planner.list()).items.find((item) => item.text === 'Acme deploys on Tuesdays.')!;
    await planner.correct({ handle: own.handle, patch: { text: 'Acme deploys on Wednesdays.' } });
    await planner.forget({ handles: [own.handle] });
    expect(backend.records.map((record) => record.text)).not.toContain('Acme deploys on Wednesdays.');
  });
});
