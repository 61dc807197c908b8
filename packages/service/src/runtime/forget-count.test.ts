import { defineMemoryAdapter, type MemoryRecordHandle, type MemoryProviderDefinition } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools, type MemoryToolResult } from '../tools/memory-tools';

function succeeded(result: MemoryToolResult): Extract<MemoryToolResult, { isError: false }> {
  if (result.isError) throw new TypeError(`expected success, got ${result.content}`);
  return result;
}

/** A provider that keeps its records and answers a forget the way the test says. */
function reportingProvider(answer: (handles: MemoryRecordHandle[]) => object): { factory: MemoryProviderDefinition; forgotten: string[] } {
  const forgotten: string[] = [];
  let next = 0;
  const adapter = defineMemoryAdapter({
    key: 'reporting',
    capabilities: {},
    capture: async () => ({}),
    upsertRecords: async (request) => ({ records: request.records.map(() => ({ providerKey: 'reporting', providerRecordId: `r-${(next += 1)}` })) }),
    query: async () => ({ snippets: [] }),
    list: async () => ({ items: [] }),
    get: async () => null,
    forget: async (handles) => {
      forgotten.push(...handles.map((handle) => handle.providerRecordId));
      return answer(handles);
    },
  });
  return { factory: { providerId: 'reporting', description: 'Reports what it forgot (test only).', capabilities: {}, create: () => adapter }, forgotten };
}

describe('forget reports what it forgot', () => {
  let service: MemoryService;
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start() {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const planner = service.runtime(as(actors.planner));
    const builder = service.runtime(as(actors.builder));
    const plannerNote = (await planner.upsertRecords({ records: [{ text: 'Planner: sprint ends Friday.' }] })).records![0]!;
    const builderNote = (await builder.upsertRecords({ records: [{ text: 'Builder: the CI cache key changed.' }] })).records![0]!;
    const tools = new Map(createMemoryTools(service).map((tool) => [tool.name, tool]));
    const forgetTool = (recordIds: string[], actor: typeof actors.planner | typeof actors.builder = actors.planner) =>
      tools.get('memory.forget')!.execute({ recordIds }, as(actor));
    return { planner, builder, plannerNote, builderNote, forgetTool };
  }

  const toolId = (handle: MemoryRecordHandle) => `${handle.providerKey}:${handle.providerRecordId}`;

  it('answers "Forgot 0" when an agent names another agent\'s record, which stays readable', async () => {
    const { builder, builderNote, forgetTool } = await start();
    const result = succeeded(await forgetTool([toolId(builderNote)]));
    expect(result.content).toBe('Forgot 0 record(s). Skipped 1: 1 not yours to forget.');
    expect(result.data).toMatchObject({ forgotten: 0, warnings: [{ type: 'scope_violation', providerRecordId: builderNote.providerRecordId }] });
    expect((await builder.get({ handle: builderNote })).snippet?.text).toBe('Builder: the CI cache key changed.');
    expect((await service.runtime(as(actors.acmeAdmin)).get({ handle: builderNote })).snippet?.text).toBe('Builder: the CI cache key changed.');
  });

  it('counts only the records actually forgotten, and says why each other one was skipped', async () => {
    const { planner, plannerNote, builderNote, forgetTool } = await start();
    const missing = { providerKey: 'memory', providerRecordId: 'mem_does_not_exist' };
    const result = succeeded(await forgetTool([toolId(plannerNote), toolId(plannerNote), toolId(builderNote), toolId(missing)]));
    expect(result.content).toBe('Forgot 1 record(s). Skipped 2: 1 not found, 1 not yours to forget.');
    expect(result.data).toMatchObject({ forgotten: 1 });
    expect((await planner.get({ handle: plannerNote })).snippet).toBeNull();
    // Forgetting it again forgets nothing.
    expect(succeeded(await forgetTool([toolId(plannerNote)])).content).toBe('Forgot 0 record(s). Skipped 1: 1 not found.');
  });

  it('gives a handle that names no record not_found, not scope_violation, for agents and admins alike', async () => {
    const { planner } = await start();
    const missing = { providerKey: 'memory', providerRecordId: 'mem_does_not_exist' };
    for (const runtime of [planner, service.runtime(as(actors.acmeAdmin))]) {
      const result = await runtime.forget({ handles: [missing] });
      expect(result.forgotten).toBe(0);
      expect(result.warnings).toEqual([{ type: 'not_found', providerRecordId: 'mem_does_not_exist', details: expect.any(String) }]);
      expect((await runtime.get({ handle: missing })).warnings).toEqual([{ type: 'not_found', providerRecordId: 'mem_does_not_exist', details: expect.any(String) }]);
    }
    // Another adapter's handle names no record of this binding either.
    const otherAdapter = await planner.forget({ handles: [{ providerKey: 'mem0', providerRecordId: 'm-1' }] });
    expect(otherAdapter).toMatchObject({ forgotten: 0, warnings: [{ type: 'not_found', providerRecordId: 'm-1' }] });
  });

  it('counts an agent\'s own records on the service result, once each', async () => {
    const { planner, plannerNote } = await start();
    const second = (await planner.upsertRecords({ records: [{ text: 'Planner: retro on Monday.' }] })).records![0]!;
    const result = await planner.forget({ handles: [plannerNote, second, plannerNote] });
    expect(result.forgotten).toBe(2);
    expect(result.warnings ?? []).toEqual([]);
  });

  it('does not count what the provider reports it skipped', async () => {
    let answer: (handles: MemoryRecordHandle[]) => object = () => ({});
    const provider = reportingProvider((handles) => answer(handles));
    ({ service, cleanUp } = await createTestService({ providers: [provider.factory] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'reporting');
    const admin = service.runtime(as(actors.acmeAdmin));
    const write = async () => (await admin.upsertRecords({ records: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })).records!;

    const gone = await write();
    answer = ([first]) => ({ warnings: [{ type: 'not_found', providerRecordId: first!.providerRecordId }] });
    expect(await admin.forget({ handles: gone })).toMatchObject({ forgotten: 2, warnings: [{ type: 'not_found', providerRecordId: gone[0]!.providerRecordId }] });

    const refused = await write();
    answer = ([, second]) => ({ warnings: [{ type: 'scope_violation', providerRecordId: second!.providerRecordId, details: 'not in the scope' }] });
    expect((await admin.forget({ handles: refused })).forgotten).toBe(2);

    // A warning about a record it was not asked about changes nothing; a key the contract does not know is not read.
    const asked = await write();
    answer = () => ({ forgotten: 99, warnings: [{ type: 'not_found', providerRecordId: 'r-elsewhere' }] });
    expect((await admin.forget({ handles: asked })).forgotten).toBe(3);
    expect(provider.forgotten).toHaveLength(9);
  });
});
