import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import type { MemoryServiceSettings } from '../service/memory-service-settings';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools } from '../tools/memory-tools';

describe('agent identity', () => {
  let service: MemoryService;
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: MemoryServiceSettings = {}) {
    ({ service, cleanUp } = await createTestService(settings));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    const planner = service.runtime(as(actors.planner));
    const builder = service.runtime(as(actors.builder));
    const plannerNote = (await planner.upsertRecords({ records: [{ text: 'Planner: sprint ends Friday.' }] })).records![0]!;
    const builderNote = (await builder.upsertRecords({ records: [{ text: 'Builder: the CI cache key changed.' }] })).records![0]!;
    const shared = (await service.runtime(as(actors.acmeAdmin)).upsertRecords({ records: [{ text: 'Company: office closed Monday.' }] })).records![0]!;
    return { planner, builder, plannerNote, builderNote, shared };
  }

  const texts = (items: Array<{ text: string }>) => items.map((item) => item.text).sort();

  it('makes an agent write as itself: an unset agent becomes its own, another agent is refused', async () => {
    const { planner } = await start();
    const admin = service.runtime(as(actors.acmeAdmin));
    expect((await admin.list({ scope: { agentId: 'planner' } })).items.map((item) => item.scope?.agentId)).toEqual(['planner']);
    await expect(planner.upsertRecords({ scope: { agentId: 'builder' }, records: [{ text: 'as builder' }] })).rejects.toMatchObject({
      code: 'MEMORY_SCOPE_VIOLATION',
    });
    await expect(planner.capture({ scope: { agentId: 'builder' }, source: { kind: 'manual_note' }, payload: { text: 'as builder' } })).rejects.toMatchObject({
      code: 'MEMORY_SCOPE_VIOLATION',
    });
    expect(texts((await admin.list({ scope: { agentId: 'builder' } })).items)).toEqual(['Builder: the CI cache key changed.']);
    const denied = (await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' })).items;
    expect(denied.map((entry) => [entry.operation, entry.errorCode])).toEqual([
      ['capture', 'MEMORY_SCOPE_VIOLATION'],
      ['record_upsert', 'MEMORY_SCOPE_VIOLATION'],
    ]);
  });

  it('never lets an agent forget or correct another agent\'s record, or a shared one', async () => {
    const { planner, builderNote, shared, plannerNote } = await start();
    const forgotten = await planner.forget({ handles: [builderNote, shared] });
    expect(forgotten.warnings?.map((warning) => warning.type)).toEqual(['scope_violation', 'scope_violation']);
    expect(forgotten.forgotten).toBe(0);
    await expect(planner.correct({ handle: builderNote, patch: { text: 'Builder: nothing changed.' } })).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    await expect(planner.correct({ handle: shared, patch: { text: 'Company: open Monday.' } })).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    const admin = service.runtime(as(actors.acmeAdmin));
    expect(texts((await admin.list()).items)).toEqual(['Builder: the CI cache key changed.', 'Company: office closed Monday.', 'Planner: sprint ends Friday.']);
    // Its own record it may change.
    await planner.correct({ handle: plannerNote, patch: { text: 'Planner: sprint ends Thursday.' } });
    expect((await planner.forget({ handles: [plannerNote] })).forgotten).toBe(1);
    expect(texts((await admin.list()).items)).toEqual(['Builder: the CI cache key changed.', 'Company: office closed Monday.']);
  });

  it('reads its own and the company\'s shared records by default, never another agent\'s', async () => {
    const { planner } = await start();
    expect(texts((await planner.list()).items)).toEqual(['Company: office closed Monday.', 'Planner: sprint ends Friday.']);
    expect(texts((await planner.query({ query: 'cache key sprint office' })).snippets)).toEqual(['Company: office closed Monday.', 'Planner: sprint ends Friday.']);
    await expect(planner.list({ scope: { agentId: 'builder' } })).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    const search = createMemoryTools(service).find((tool) => tool.name === 'memory.search')!;
    const result = await search.execute({ query: 'cache key', reach: 'company' }, as(actors.planner));
    expect(JSON.stringify(result)).not.toContain('Builder:');
  });

  it('builds an agent\'s preamble only from what the agent may read', async () => {
    await start();
    const system = { actor: actors.heartbeat, companyId: 'acme' } as const;
    const hydration = await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'cache key sprint office' });
    expect(hydration.preamble).toContain('Planner: sprint ends Friday.');
    expect(hydration.preamble).toContain('Company: office closed Monday.');
    expect(JSON.stringify(hydration)).not.toContain('Builder:');
  });

  it('keeps the agent\'s own records out of the shared preamble, the one a wider audience reads', async () => {
    await start({ agentIdentity: { reads: 'company' } });
    const system = { actor: actors.heartbeat, companyId: 'acme' } as const;
    const hydration = await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'cache key sprint office' });
    expect(hydration.preamble).toContain('Planner: sprint ends Friday.');
    expect(hydration.preamble).toContain('Builder: the CI cache key changed.');
    expect(hydration.sharedPreamble).toContain('Company: office closed Monday.');
    expect(hydration.sharedPreamble).not.toContain('Planner:');
    expect(hydration.sharedPreamble).not.toContain('Builder:');
  });

  it('follows the configured read reach', async () => {
    const own = await start({ agentIdentity: { reads: 'own' } });
    expect(texts((await own.planner.list()).items)).toEqual(['Planner: sprint ends Friday.']);
    await cleanUp?.();
    const company = await start({ agentIdentity: { reads: 'company' } });
    expect(texts((await company.planner.list()).items)).toHaveLength(3);
    expect(texts((await company.planner.list({ scope: { agentId: 'builder' } })).items)).toEqual(['Builder: the CI cache key changed.']);
    // Reading the whole company never lets it write or forget as another agent.
    await expect(company.planner.upsertRecords({ scope: { agentId: 'builder' }, records: [{ text: 'x' }] })).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    await expect(company.planner.correct({ handle: company.builderNote, patch: { text: 'x' } })).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
  });

  it('never lets an agent re-drive another agent\'s extraction job', async () => {
    await start();
    const binding = await service.store.getBindingByKey('acme', 'default');
    const at = '2026-11-01T00:00:00.000Z';
    await service.store.upsertExtractionJobs([
      { id: 'job_planner', companyId: 'acme', bindingId: binding!.id, bindingKey: 'default', providerJobId: 'p-1', status: 'failed', scope: { companyId: 'acme', agentId: 'planner' }, retryCount: 0, createdAt: at, updatedAt: at },
    ]);
    await expect(service.runtime(as(actors.builder)).retryExtractionJob({ jobId: 'job_planner' })).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    const failed = (await service.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'extraction_job_retry' })).items;
    expect(failed.map((entry) => [entry.status, entry.errorCode, entry.bindingKey])).toEqual([['failed', 'MEMORY_NOT_FOUND', undefined]]);
  });

  it('refuses a reach that is not one of the policy values', async () => {
    await expect(createTestService({ agentIdentity: { reads: 'everyone' as never } })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
  });
});
