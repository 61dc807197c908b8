import { MemoryValidationError } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { searchedMemory } from './testing/mem0-fake-responses';
import { createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-1' };

async function texts(adapter: ReturnType<typeof createTestAdapter>, scope: Parameters<ReturnType<typeof createTestAdapter>['list']>[0]['scope']) {
  return (await adapter.list({ bindingKey: 'b', scope })).items.map((item) => item.text).sort();
}

describe('mem0 scope mapping', () => {
  it('keeps agent and subject scopes isolated although an extracted fact carries user_id or agent_id, never both', async () => {
    const adapter = createTestAdapter(fake, { captureRole: 'user' });
    const scope = { companyId: 'acme', agentId: 'planner', subjectId: 'alice' };
    const { jobs } = await adapter.capture({ bindingKey: 'b', scope, source, payload: { text: 'Alice drinks green tea. Alice deploys on Fridays.' } });
    fake.drain();
    expect((await adapter.getExtractionJob(jobs?.[0]?.providerJobId ?? '', scope)).job?.status).toBe('succeeded');

    const extracted = [...fake.store.memories.values()].filter((memory) => memory.app_id === 'acme');
    expect(extracted.map((memory) => [memory.user_id, memory.agent_id])).toEqual([
      ['acme~alice', null],
      ['acme~alice', null],
    ]);
    const both = ['Alice deploys on Fridays.', 'Alice drinks green tea.'];
    expect(await texts(adapter, { companyId: 'acme', agentId: 'planner' })).toEqual(both);
    expect(await texts(adapter, { companyId: 'acme', subjectId: 'alice' })).toEqual(both);
    expect(await texts(adapter, { companyId: 'acme', agentId: 'reviewer' })).toEqual([]);
    expect(await texts(adapter, { companyId: 'acme', subjectId: 'bob' })).toEqual([]);
    expect(await texts(adapter, { companyId: 'globex', subjectId: 'alice' })).toEqual([]);
  });

  it('qualifies entity ids by company, so one subject name in two companies is two mem0 users', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'initech', subjectId: 'sam' }, records: [{ text: 'Sam at Initech likes staplers.' }] });
    await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'hooli', subjectId: 'sam' }, records: [{ text: 'Sam at Hooli likes compression.' }] });
    const users = [...fake.store.memories.values()].filter((memory) => memory.memory.startsWith('Sam at')).map((memory) => memory.user_id);
    expect(users).toEqual(['initech~sam', 'hooli~sam']);
  });

  it('drops a record of another company that mem0 returns, and reports it as a scope_violation warning', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'umbrella' }, records: [{ text: 'Umbrella keeps its deploy calendar private.' }] });
    await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'acme-leak' }, records: [{ text: 'Acme deploy calendar is public.' }] });
    const foreign = [...fake.store.memories.values()].find((memory) => memory.app_id === 'umbrella');
    const own = [...fake.store.memories.values()].find((memory) => memory.app_id === 'acme-leak');
    if (foreign === undefined || own === undefined) throw new TypeError('both records should be stored');
    // A faulty provider that ignores the filters.
    testServer.use(
      http.post(`${fake.host}/v3/memories/search/`, () =>
        HttpResponse.json({ results: [own, foreign].map((memory) => searchedMemory(memory, { total: 0.9, semantic: 0.9, bm25: 0.9, entity: 0 })) }),
      ),
    );
    const bundle = await adapter.query({ bindingKey: 'b', scope: { companyId: 'acme-leak' }, query: 'deploy calendar' });
    expect(bundle.snippets.map((snippet) => snippet.text)).toEqual(['Acme deploy calendar is public.']);
    expect(bundle.warnings).toContainEqual({ type: 'scope_violation', providerRecordId: `memory:${foreign.id}`, details: 'mem0 returned a memory of another app_id (company)' });
  });

  it('refuses caller metadata keys in the adapter namespace, naming the field, before calling mem0', async () => {
    const adapter = createTestAdapter(fake);
    await expect(adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'acme' }, records: [{ text: 'ok' }, { text: 'bad', metadata: { memplane_agent: 'x' } }] })).rejects.toSatisfy(
      (error) => MemoryValidationError.isInstance(error) && error.field === 'records.1.metadata.memplane_agent',
    );
    await expect(adapter.list({ bindingKey: 'b', scope: { companyId: 'acme' }, metadataFilter: { memplane_company: 'other' } })).rejects.toSatisfy(
      (error) => MemoryValidationError.isInstance(error) && error.field === 'metadataFilter.memplane_company',
    );
    expect(testServer.calls.filter((call) => call.pathname !== '/v1/ping/')).toEqual([]);
  });

  it('corrects in place: the text and named metadata change, other metadata, scope and source stay', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: 'acme', projectId: 'apollo' };
    const [handle] = (await adapter.upsertRecords({ bindingKey: 'b', scope, source, records: [{ text: 'Deploys on Tuesday.', metadata: { kept: 1, tags: ['a'] } }] })).records ?? [];
    if (handle === undefined) throw new TypeError('a handle was expected');
    const result = await adapter.correct(handle, { text: 'Deploys on Wednesday.', metadata: { tags: ['a', 'b'] }, summary: 'deploy day' }, scope);
    expect(result.record).toEqual(handle);
    const snippet = await adapter.get(handle, scope);
    expect(snippet).toMatchObject({ text: 'Deploys on Wednesday.', metadata: { kept: 1, tags: ['a', 'b'] }, summary: 'deploy day', source, scope });
    const filtered = await adapter.list({ bindingKey: 'b', scope, metadataFilter: { tags: ['a', 'b'] } });
    expect(filtered.items.map((item) => item.text)).toEqual(['Deploys on Wednesday.']);
    expect((await adapter.list({ bindingKey: 'b', scope, metadataFilter: { tags: ['a'] } })).items).toEqual([]);
  });
});
