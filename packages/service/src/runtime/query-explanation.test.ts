import type { MemoryAdapter, MemoryContextBundle, MemoryExplanation } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createLeakyProvider, createTestService } from '../test-support/service-test-support';

/**
 * The leaky provider, now declaring `explain`: its trace ignores the bundle it is given and
 * names every record it holds, the other company's included, as a faulty backend might.
 */
function createExplainingLeakyProvider() {
  const leaky = createLeakyProvider();
  const seen: MemoryContextBundle[] = [];
  const factory = {
    ...leaky.factory,
    providerId: 'leaky',
    capabilities: { profile: true, explain: true },
    create: (...args: Parameters<typeof leaky.factory.create>) => {
      const inner = leaky.factory.create(...args) as MemoryAdapter;
      const adapter: MemoryAdapter = {
        ...inner,
        capabilities: { profile: true, explain: true },
        async explain(bundle) {
          seen.push(bundle);
          return {
            steps: leaky.records.map((record) => ({
              handle: { providerKey: 'leaky', providerRecordId: record.id },
              stage: 'lexical',
              score: 1,
              details: `matched ${record.text}`,
            })),
            usage: [{ provider: 'leaky', billingType: 'subscription_included' as const, latencyMs: 2 }],
          };
        },
      };
      return adapter;
    },
  };
  return { factory, seen, records: leaky.records };
}

describe('query with explain', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void> = async () => {};
  afterEach(async () => cleanUp());

  it('returns the markdown provider\'s trace of the returned snippets, in the same logged operation', async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'markdown');
    const planner = service.runtime(as(actors.planner));
    await planner.upsertRecords({ records: [{ text: 'The staging database is rebuilt nightly.' }] });
    const result = await planner.query({ query: 'staging database', explain: true });
    expect(result.snippets).toHaveLength(1);
    const ids = new Set(result.snippets.map((snippet) => snippet.handle.providerRecordId));
    expect(result.explanation!.steps.map((step) => step.stage)).toEqual(['lexical', 'fusion']);
    for (const step of result.explanation!.steps) expect(ids.has(step.handle.providerRecordId)).toBe(true);
    expect(result.explanation!.steps[0]!.details).toContain('staging, database');
    const entry = (await service.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'query' })).items.find((item) => item.id === result.operationId);
    expect(entry).toMatchObject({ status: 'succeeded', details: { explained: true } });
  });

  it('does not explain unless asked', async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'markdown');
    const planner = service.runtime(as(actors.planner));
    await planner.upsertRecords({ records: [{ text: 'The staging database is rebuilt nightly.' }] });
    const result = await planner.query({ query: 'staging database' });
    expect(result).not.toHaveProperty('explanation');
  });

  it('calls nothing and warns explain_unsupported when the provider does not declare explain', async () => {
    const leaky = createLeakyProvider();
    ({ service, cleanUp } = await createTestService({ providers: [leaky.factory] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'leaky');
    const planner = service.runtime(as(actors.planner));
    await planner.upsertRecords({ records: [{ text: 'Acme deploys on Tuesdays.' }] });
    // The leaky provider's explain throws: reaching it would fail the query.
    const result = await planner.query({ query: 'deploys', explain: true });
    expect(result.snippets).toHaveLength(1);
    expect(result).not.toHaveProperty('explanation');
    expect(result.warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', feature: 'explain', details: expect.stringContaining('explain_unsupported') }));
    const entry = (await service.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'query' })).items.find((item) => item.id === result.operationId);
    expect(entry?.details).not.toHaveProperty('explained');
  });

  it('drops every trace step about a record the caller was not given, and explains only the filtered bundle', async () => {
    const provider = createExplainingLeakyProvider();
    ({ service, cleanUp } = await createTestService({ providers: [provider.factory] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'leaky');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'leaky');
    await service.runtime(as(actors.planner)).upsertRecords({ records: [{ text: 'Acme deploys on Tuesdays.' }] });
    await service.runtime(as(actors.globexAdmin)).upsertRecords({ scope: { agentId: 'scout' }, records: [{ text: 'GLOBEX secret: the launch code is 0000.' }] });
    const result = await service.runtime(as(actors.planner)).query({ query: 'deploys', explain: true });
    expect(result.snippets.map((snippet) => snippet.text)).toEqual(['Acme deploys on Tuesdays.']);
    expect(result.explanation!.steps.map((step) => step.handle.providerRecordId)).toEqual([result.snippets[0]!.handle.providerRecordId]);
    expect(JSON.stringify(result)).not.toContain('GLOBEX');
    expect(result.warnings).toContainEqual(expect.objectContaining({ type: 'other', message: expect.stringContaining('1 step(s) about records outside the returned snippets') }));
    // The provider was handed only what the caller got.
    expect(provider.seen).toHaveLength(1);
    expect(JSON.stringify(provider.seen[0])).not.toContain('GLOBEX');
    // The explain call's usage is booked with the query's, in its one log entry.
    const entry = (await service.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'query' })).items.find((item) => item.id === result.operationId);
    expect(entry).toMatchObject({ details: { explained: true }, usage: [expect.objectContaining({ provider: 'leaky', latencyMs: 2 })] });
  });

  it('refuses a malformed trace with a typed error, and a client cannot hand it a bundle', async () => {
    const provider = createExplainingLeakyProvider();
    const broken = {
      ...provider.factory,
      create: (...args: Parameters<typeof provider.factory.create>) => ({
        ...provider.factory.create(...args),
        explain: async () => ({ steps: [{ handle: { providerKey: 'leaky' }, stage: '' }] }) as unknown as MemoryExplanation,
      }),
    };
    ({ service, cleanUp } = await createTestService({ providers: [broken] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'leaky');
    const planner = service.runtime(as(actors.planner));
    await planner.upsertRecords({ records: [{ text: 'Acme deploys on Tuesdays.' }] });
    await expect(planner.query({ query: 'deploys', explain: true })).rejects.toMatchObject({ code: 'MEMORY_INVALID_RESPONSE' });
    await expect(planner.query({ query: 'deploys', explain: true, bundle: { snippets: [] } } as never)).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    await expect(planner.query({ query: 'deploys', explain: 'yes' } as never)).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
  });
});
