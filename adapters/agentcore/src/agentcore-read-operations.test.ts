import { ListMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import type { MemoryAdapter, MemoryScope } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentCoreEndpoint } from './testing/agentcore-fake-responses';
import { providerPageSize } from './agentcore-read-operations';
import { recordedBodies } from './testing/agentcore-recorded-requests';
import { setupAgentCoreTestEnvironment, testMemoryId, testRegion } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();
const listPath = /\/memoryRecords$/;

async function write(adapter: MemoryAdapter, scope: MemoryScope, texts: string[], metadata?: (index: number) => Record<string, unknown>) {
  const result = await adapter.upsertRecords({
    bindingKey: 'default',
    scope,
    records: texts.map((text, index) => ({ text, ...(metadata === undefined ? {} : { metadata: metadata(index) }) })),
  });
  return result.records ?? [];
}

async function listAll(adapter: MemoryAdapter, scope: MemoryScope, limit: number, metadataFilter?: Record<string, unknown>) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await adapter.list({ bindingKey: 'default', scope, limit, ...(cursor === undefined ? {} : { cursor }), ...(metadataFilter === undefined ? {} : { metadataFilter }) });
    pages.push(page.items.map((item) => item.text));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

describe('the namespace prefix trap', () => {
  it('exists in the fake exactly as on AWS: a namespace without its trailing slash matches another company', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'c1' }, ['company one']);
    await write(adapter, { companyId: 'c10' }, ['company ten']);
    const direct = await environment.createClient().send(new ListMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/c1' }));
    expect(direct.memoryRecordSummaries?.map((record) => record.content?.text).sort()).toEqual(['company one', 'company ten']);
  });

  it('never reaches the adapter, which always asks with the trailing slash', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'c1' }, ['company one release notes']);
    await write(adapter, { companyId: 'c10' }, ['company ten release notes']);
    const page = await adapter.list({ bindingKey: 'default', scope: { companyId: 'c1' } });
    const bundle = await adapter.query({ bindingKey: 'default', scope: { companyId: 'c1' }, query: 'release notes' });
    expect(page.items.map((item) => item.text)).toEqual(['company one release notes']);
    expect(bundle.snippets.map((item) => item.text)).toEqual(['company one release notes']);
    expect([...page.warnings ?? [], ...bundle.warnings ?? []]).toEqual([]);
    expect(recordedBodies(environment.server.calls, 'POST', /\/(memoryRecords|retrieve)$/).map((body) => (body as { namespace: string }).namespace)).toEqual(['/c/c1/', '/c/c1/']);
  });
});

describe('double enforcement of the company boundary', () => {
  it('drops a record of another company that AgentCore returns anyway, and reports it', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'acme' }, ['ours']);
    const foreign = { memoryRecordId: `mem-${'f'.repeat(36)}`, content: { text: 'theirs' }, memoryStrategyId: 'manual', namespaces: ['/c/globex/'], createdAt: 1_790_000_000 };
    const sameCompanyOtherAgent = { ...foreign, memoryRecordId: `mem-${'e'.repeat(36)}`, namespaces: ['/c/acme/a/other/'] };
    environment.server.use(
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords`, () => HttpResponse.json({ memoryRecordSummaries: [foreign] })),
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/retrieve`, () => HttpResponse.json({ memoryRecordSummaries: [{ ...foreign, score: 0.9 }, { ...sameCompanyOtherAgent, score: 0.8 }] })),
    );
    const page = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme' } });
    expect(page.items).toEqual([]);
    expect(page.warnings).toEqual([{ type: 'scope_violation', providerRecordId: `record:${foreign.memoryRecordId}`, details: 'AgentCore returned a record of another company' }]);
    const bundle = await adapter.query({ bindingKey: 'default', scope: { companyId: 'acme', agentId: 'planner' }, query: 'theirs' });
    expect(bundle.snippets).toEqual([]);
    expect(bundle.warnings?.map((warning) => warning.type)).toEqual(['scope_violation', 'scope_violation']);
  });

  it('filters the scope fields below the agent at AgentCore and again on every returned record', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'acme', projectId: 'apollo' }, ['apollo fact']);
    await write(adapter, { companyId: 'acme', projectId: 'gemini' }, ['gemini fact']);
    const page = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme', projectId: 'apollo' } });
    expect(page.items.map((item) => [item.text, item.scope])).toEqual([['apollo fact', { companyId: 'acme', projectId: 'apollo' }]]);
    expect(recordedBodies(environment.server.calls, 'POST', listPath)).toMatchInlineSnapshot(`
      [
        {
          "maxResults": 50,
          "metadataFilters": [
            {
              "left": {
                "metadataKey": "memplane.projectId",
              },
              "operator": "EQUALS_TO",
              "right": {
                "metadataValue": {
                  "stringValue": "apollo",
                },
              },
            },
          ],
          "namespace": "/c/acme/",
        },
      ]
    `);
    environment.server.use(
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords`, () =>
        HttpResponse.json({ memoryRecordSummaries: [...environment.fake.records.values()].map(({ sequence: _sequence, ...record }) => record) }),
      ),
    );
    const unfiltered = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme', projectId: 'apollo' } });
    expect(unfiltered.items.map((item) => item.text)).toEqual(['apollo fact']);
    expect(unfiltered.warnings).toEqual([expect.objectContaining({ type: 'scope_violation', details: 'AgentCore returned a record whose projectId differs from the requested one' })]);
  });
});

describe('metadata values of the wrong type', () => {
  it('never count as a scope field or as provenance, and do not fail the page', async () => {
    const odd = {
      memoryRecordId: `mem-${'d'.repeat(36)}`,
      content: { text: 'odd metadata' },
      namespaces: ['/c/acme/'],
      createdAt: 1_790_000_000,
      metadata: { 'memplane.projectId': { numberValue: 5 }, 'memplane.p0': { stringValue: 12 }, other: null },
    };
    environment.server.use(http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords`, () => HttpResponse.json({ memoryRecordSummaries: [odd] })));
    const adapter = environment.createAdapter();
    const page = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme' } });
    expect(page.items).toEqual([expect.objectContaining({ text: 'odd metadata', scope: { companyId: 'acme' } })]);
    expect(page.items[0]?.source).toBeUndefined();
    expect(page.warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'provenance' })]);
    const narrowed = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme', projectId: '5' } });
    expect(narrowed.items).toEqual([]);
  });
});

describe('long identifiers', () => {
  it('stores ids too long to encode as digests and still matches them exactly', async () => {
    const adapter = environment.createAdapter();
    const companyId = `company-${'ü'.repeat(80)}`;
    const projectId = `project-${'/'.repeat(60)}`;
    const written = await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId, projectId }, records: [{ text: 'long ids' }] });
    expect(written.warnings?.map((warning) => (warning.type === 'compatibility' ? warning.feature : warning.type))).toEqual(['scope.companyId', 'scope.projectId']);
    const page = await adapter.list({ bindingKey: 'default', scope: { companyId, projectId } });
    expect(page.items.map((item) => [item.text, item.scope])).toEqual([['long ids', { companyId, projectId }]]);
    expect((await adapter.list({ bindingKey: 'default', scope: { companyId } })).items[0]?.scope).toEqual({ companyId });
    expect((await adapter.list({ bindingKey: 'default', scope: { companyId: `${companyId}x` } })).items).toEqual([]);
    expect((await adapter.list({ bindingKey: 'default', scope: { companyId, projectId: `${projectId}x` } })).items).toEqual([]);
  });
});

describe('query', () => {
  it('sends RetrieveMemoryRecords with topK and returns the best records first, with their scores', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'acme', agentId: 'planner' }, ['deploys happen on tuesdays', 'tuesdays are quiet', 'unrelated']);
    const bundle = await adapter.query({ bindingKey: 'default', scope: { companyId: 'acme', agentId: 'planner' }, query: 'deploys tuesdays', topK: 2, intent: 'answer' });
    expect(bundle.snippets.map((snippet) => [snippet.text, snippet.score])).toEqual([['deploys happen on tuesdays', 1], ['tuesdays are quiet', 0.5]]);
    expect(bundle.warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'intent' })]);
    expect(recordedBodies(environment.server.calls, 'POST', /\/retrieve$/)).toMatchInlineSnapshot(`
      [
        {
          "maxResults": 2,
          "namespace": "/c/acme/a/planner/",
          "searchCriteria": {
            "searchQuery": "deploys tuesdays",
            "topK": 2,
          },
        },
      ]
    `);
  });

  it('applies a metadataFilter after retrieval, asking AgentCore for its maximum of 100 and keeping topK', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'acme' }, Array.from({ length: 6 }, (_, index) => `checklist item ${index}`), (index) => ({ parity: index % 2 === 0 ? 'even' : 'odd', tags: ['a'] }));
    const bundle = await adapter.query({ bindingKey: 'default', scope: { companyId: 'acme' }, query: 'checklist', topK: 2, metadataFilter: { parity: 'odd', tags: ['a'] } });
    expect(bundle.snippets.map((snippet) => snippet.text)).toEqual(['checklist item 1', 'checklist item 3']);
    expect((recordedBodies(environment.server.calls, 'POST', /\/retrieve$/)[0] as { searchCriteria: { topK: number } }).searchCriteria.topK).toBe(100);
  });
});

describe('list', () => {
  it('uses AgentCore pages of at most 100 that divide the limit', () => {
    expect([1, 5, 50, 100, 101, 150, 199, 200].map(providerPageSize)).toEqual([1, 5, 50, 100, 50, 75, 99, 100]);
  });

  it('walks every record exactly once with opaque cursors, within the AgentCore page limit', async () => {
    const adapter = environment.createAdapter();
    const texts = Array.from({ length: 230 }, (_, index) => `record ${index}`);
    await write(adapter, { companyId: 'acme' }, texts);
    const pages = await listAll(adapter, { companyId: 'acme' }, 150);
    expect(pages.map((page) => page.length)).toEqual([150, 80]);
    expect(pages.flat()).toEqual(texts);
    const sizes = recordedBodies(environment.server.calls, 'POST', listPath).map((body) => (body as { maxResults: number }).maxResults);
    expect(sizes.every((size) => size <= 100)).toBe(true);
  });

  it('keeps reading while a metadataFilter drops whole pages, and never splits a page, so nothing is skipped', async () => {
    const adapter = environment.createAdapter();
    const texts = Array.from({ length: 40 }, (_, index) => `record ${index}`);
    await write(adapter, { companyId: 'acme' }, texts, (index) => ({ keep: index >= 25 || index % 7 === 3 }));
    const pages = await listAll(adapter, { companyId: 'acme' }, 5, { keep: true });
    expect(pages.flat()).toEqual(texts.filter((_, index) => index >= 25 || index % 7 === 3));
    expect(pages.every((page) => page.length <= 5)).toBe(true);
  });

  it('refuses a cursor of another scope or filter before calling AgentCore', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, { companyId: 'acme' }, ['one', 'two', 'three']);
    const first = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme' }, limit: 1 });
    const callsBefore = environment.server.calls.length;
    await expect(adapter.list({ bindingKey: 'default', scope: { companyId: 'globex' }, cursor: first.nextCursor })).rejects.toMatchObject({ code: 'MEMORY_INVALID_CURSOR', reason: 'foreign' });
    await expect(adapter.list({ bindingKey: 'default', scope: { companyId: 'acme' }, cursor: first.nextCursor, metadataFilter: { a: 1 } })).rejects.toMatchObject({ reason: 'stale' });
    expect(environment.server.calls.length).toBe(callsBefore);
  });

  it('returns each record with its scope, creation time and provenance', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner', issueId: 'issue 7', subjectId: 'user@example.com' };
    const source = { kind: 'issue' as const, companyId: 'acme', issueId: 'issue 7' };
    await adapter.upsertRecords({ bindingKey: 'default', scope, source, records: [{ text: 'fact', summary: 'short', metadata: { deep: { list: [1, null] } } }] });
    const [item] = (await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme' } })).items;
    expect(item).toEqual({
      handle: { providerKey: 'agentcore', providerRecordId: expect.stringMatching(/^record:mem-/) },
      text: 'fact',
      summary: 'short',
      source,
      metadata: { deep: { list: [1, null] } },
      scope,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});
