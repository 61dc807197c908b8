import {
  InvalidCursorError,
  MemoryNotFoundError,
  MemoryValidationError,
  type MemoryAdapter,
  type MemoryScope,
} from '@memplane/core';
import type { RecordedCall } from '@memplane/test-server';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import partialRejection from './__fixtures__/create-records-partial-rejection.json';
import searchWithForeignRecord from './__fixtures__/search-with-foreign-record.json';
import { createExampleAdapter } from './example-adapter';
import { setupExampleFakeServer } from './example-fake-server';
import type { ExampleAdapterSettings } from './example-settings';

const { api, testServer } = setupExampleFakeServer();

const scope: MemoryScope = { companyId: 'company-fixture', agentId: 'agent-1' };
const source = { kind: 'manual_note', companyId: 'company-fixture' } as const;

function createAdapter(settings: ExampleAdapterSettings = {}): MemoryAdapter {
  return createExampleAdapter({ apiKey: api.apiKey, baseURL: api.baseURL, retry: { maxRetries: 0 }, ...settings });
}

/** What the adapter sent, without the parts that change between runs. */
function sent(calls: ReadonlyArray<RecordedCall>) {
  return calls.map((call) => ({ method: call.method, path: call.pathname, query: call.searchParams, body: call.bodyJson }));
}

describe('request bodies', () => {
  it('writes records with the tenant, the scope labels, metadata and source, and the API key header', async () => {
    const adapter = createAdapter();
    const result = await adapter.upsertRecords({
      bindingKey: 'main',
      scope: { ...scope, projectId: 'project-9' },
      source,
      records: [{ text: 'Prefers dark roast coffee.', summary: 'Coffee', metadata: { confidence: 0.9 } }, { text: 'Works from Lisbon.' }],
    });

    expect(result.records).toEqual([
      { providerKey: 'example', providerRecordId: 'record:rec_000001' },
      { providerKey: 'example', providerRecordId: 'record:rec_000002' },
    ]);
    expect(testServer.calls[0]?.headers['x-api-key']).toBe(api.apiKey);
    expect(sent(testServer.calls)).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "records": [
              {
                "labels": {
                  "agent_id": "agent-1",
                  "project_id": "project-9",
                },
                "metadata": {
                  "confidence": 0.9,
                },
                "source": {
                  "companyId": "company-fixture",
                  "kind": "manual_note",
                },
                "summary": "Coffee",
                "text": "Prefers dark roast coffee.",
              },
              {
                "labels": {
                  "agent_id": "agent-1",
                  "project_id": "project-9",
                },
                "source": {
                  "companyId": "company-fixture",
                  "kind": "manual_note",
                },
                "text": "Works from Lisbon.",
              },
            ],
            "tenant": "company-fixture",
          },
          "method": "POST",
          "path": "/v1/records",
          "query": {},
        },
      ]
    `);
  });

  it('searches with the tenant, label and metadata filters and top_k', async () => {
    const adapter = createAdapter();
    await adapter.query({
      bindingKey: 'main',
      scope,
      query: 'coffee preferences',
      topK: 3,
      metadataFilter: { topic: 'drinks' },
    });
    expect(sent(testServer.calls)).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "filters": {
              "labels": {
                "agent_id": "agent-1",
              },
              "metadata": {
                "topic": "drinks",
              },
            },
            "query": "coffee preferences",
            "tenant": "company-fixture",
            "top_k": 3,
          },
          "method": "POST",
          "path": "/v1/search",
          "query": {},
        },
      ]
    `);
  });

  it('lists with the tenant, JSON filters, page size and the page token of the cursor', async () => {
    const adapter = createAdapter();
    await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
    const first = await adapter.list({ bindingKey: 'main', scope, limit: 2 });
    await adapter.list({ bindingKey: 'main', scope, limit: 2, cursor: first.nextCursor });
    expect(sent(testServer.calls.slice(1))).toMatchInlineSnapshot(`
      [
        {
          "body": undefined,
          "method": "GET",
          "path": "/v1/records",
          "query": {
            "filters": "{"labels":{"agent_id":"agent-1"}}",
            "page_size": "2",
            "tenant": "company-fixture",
          },
        },
        {
          "body": undefined,
          "method": "GET",
          "path": "/v1/records",
          "query": {
            "filters": "{"labels":{"agent_id":"agent-1"}}",
            "page_size": "2",
            "page_token": "cmVjXzAwMDAwMg",
            "tenant": "company-fixture",
          },
        },
      ]
    `);
  });

  it('corrects through PATCH after checking the record is in the narrow scope', async () => {
    const adapter = createAdapter();
    const written = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'Lives in Porto.', metadata: { city: 'Porto', kept: true } }] });
    const handle = written.records?.[0];
    if (handle === undefined) throw new Error('no handle');
    await adapter.correct(handle, { text: 'Lives in Lisbon.', metadata: { city: 'Lisbon' }, reason: 'moved' }, scope);

    expect(sent(testServer.calls.slice(1))).toMatchInlineSnapshot(`
      [
        {
          "body": undefined,
          "method": "GET",
          "path": "/v1/records/rec_000001",
          "query": {
            "tenant": "company-fixture",
          },
        },
        {
          "body": {
            "metadata": {
              "city": "Lisbon",
            },
            "reason": "moved",
            "text": "Lives in Lisbon.",
          },
          "method": "PATCH",
          "path": "/v1/records/rec_000001",
          "query": {
            "tenant": "company-fixture",
          },
        },
      ]
    `);
    expect(await adapter.get(handle, scope)).toMatchObject({ text: 'Lives in Lisbon.', metadata: { city: 'Lisbon', kept: true } });
  });
});

describe('operations', () => {
  it('reads back what it wrote: text, summary, metadata, source and scope', async () => {
    const adapter = createAdapter();
    const written = await adapter.upsertRecords({
      bindingKey: 'main',
      scope: { ...scope, sessionKey: 'session-3' },
      source,
      records: [{ text: 'Prefers tea.', summary: 'Tea', metadata: { nested: { level: [1, 2] } } }],
    });
    const handle = written.records?.[0];
    if (handle === undefined) throw new Error('no handle');

    expect(await adapter.get(handle, scope)).toEqual({
      handle,
      text: 'Prefers tea.',
      summary: 'Tea',
      metadata: { nested: { level: [1, 2] } },
      source,
      scope: { companyId: 'company-fixture', agentId: 'agent-1', sessionKey: 'session-3' },
      createdAt: '2025-01-01T00:00:01.000Z',
      updatedAt: '2025-01-01T00:00:01.000Z',
    });
    expect(await adapter.get(handle, { companyId: 'company-other' })).toBeNull();
    expect(await adapter.get(handle, { ...scope, agentId: 'agent-2' })).toBeNull();
    expect(await adapter.get({ providerKey: 'example', providerRecordId: 'job:rec_000001' }, scope)).toBeNull();
  });

  it('splits writes into batches of 100 and keeps the request order of the handles', async () => {
    const adapter = createAdapter();
    const records = Array.from({ length: 150 }, (_, index) => ({ text: `note ${index}` }));
    const result = await adapter.upsertRecords({ bindingKey: 'main', scope, records });

    expect(testServer.calls.map((call) => (call.bodyJson as { records: unknown[] }).records.length)).toEqual([100, 50]);
    expect(result.records).toHaveLength(150);
    expect(result.usage).toHaveLength(2);
    const texts = await Promise.all([0, 99, 100, 149].map((index) => adapter.get(result.records?.[index] ?? { providerKey: '', providerRecordId: '' }, scope)));
    expect(texts.map((snippet) => snippet?.text)).toEqual(['note 0', 'note 99', 'note 100', 'note 149']);
  });

  it('reports records the API rejected as failures with core codes and request indexes', async () => {
    testServer.use(http.post(`${api.baseURL}/v1/records`, () => HttpResponse.json(partialRejection)));
    const adapter = createAdapter();
    const result = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    expect(result.records).toEqual([{ providerKey: 'example', providerRecordId: 'record:rec_900001' }]);
    expect(result.failures).toEqual([
      { index: 1, code: 'MEMORY_VALIDATION', message: 'text contains a control character', isRetryable: false },
      { index: 2, code: 'MEMORY_RATE_LIMITED', message: 'record quota of the tenant is used up', isRetryable: true },
    ]);
  });

  it('turns a failed later batch into failures, because the earlier batch is already written', async () => {
    let posts = 0;
    testServer.use(
      http.post(`${api.baseURL}/v1/records`, () => {
        posts += 1;
        return posts === 2 ? HttpResponse.json({ error: { code: 'unavailable', message: 'down' } }, { status: 503 }) : undefined;
      }),
    );
    const adapter = createAdapter();
    const records = Array.from({ length: 101 }, (_, index) => ({ text: `note ${index}` }));
    const result = await adapter.upsertRecords({ bindingKey: 'main', scope, records });
    expect(result.records).toHaveLength(100);
    expect(result.failures).toEqual([{ index: 100, code: 'MEMORY_API_CALL', message: 'Example API error 503: down', isRetryable: true }]);
  });

  it('drops a record of another tenant itself and says so in a warning', async () => {
    testServer.use(http.post(`${api.baseURL}/v1/search`, () => HttpResponse.json(searchWithForeignRecord)));
    const adapter = createAdapter();
    const bundle = await adapter.query({ bindingKey: 'main', scope: { companyId: 'company-fixture' }, query: 'deploy' });

    expect(bundle.snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual(['record:rec_900011', 'record:rec_900012']);
    expect(bundle.warnings).toEqual([
      { type: 'scope_violation', providerRecordId: 'record:rec_900010', details: 'the Example API returned a record of another tenant' },
    ]);
  });

  it('drops a record whose labels do not match the narrow scope', async () => {
    testServer.use(http.post(`${api.baseURL}/v1/search`, () => HttpResponse.json(searchWithForeignRecord)));
    const bundle = await createAdapter().query({ bindingKey: 'main', scope, query: 'deploy' });
    expect(bundle.snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual(['record:rec_900012']);
    expect(bundle.warnings?.map((warning) => warning.type === 'scope_violation' && warning.providerRecordId)).toEqual([
      'record:rec_900010',
      'record:rec_900011',
    ]);
  });

  it('ranks query results best first with the API score and filters on metadata', async () => {
    const adapter = createAdapter();
    await adapter.upsertRecords({
      bindingKey: 'main',
      scope,
      records: [
        { text: 'Drinks coffee in the morning.', metadata: { topic: 'drinks' } },
        { text: 'Morning coffee must be dark roast coffee.', metadata: { topic: 'drinks' } },
        { text: 'Coffee machine is broken.', metadata: { topic: 'office' } },
      ],
    });
    const bundle = await adapter.query({ bindingKey: 'main', scope, query: 'morning coffee', metadataFilter: { topic: 'drinks' } });
    expect(bundle.snippets.map((snippet) => [snippet.text, snippet.score])).toEqual([
      ['Drinks coffee in the morning.', 1],
      ['Morning coffee must be dark roast coffee.', 1],
    ]);
    expect(bundle.usage?.[0]).toMatchObject({ provider: 'example', embeddingTokens: 2, model: 'example-embed-1' });
  });

  it('warns that the API ignores the query intent', async () => {
    const bundle = await createAdapter().query({ bindingKey: 'main', scope, query: 'anything', intent: 'agent_preamble' });
    expect(bundle.warnings).toEqual([{ type: 'unsupported', feature: 'intent', details: 'The Example API ranks every query the same way.' }]);
  });

  it('pages through a listing with cursors bound to the scope and the filter', async () => {
    const adapter = createAdapter();
    await adapter.upsertRecords({ bindingKey: 'main', scope, records: Array.from({ length: 5 }, (_, index) => ({ text: `note ${index}` })) });
    const texts: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await adapter.list({ bindingKey: 'main', scope, limit: 2, cursor });
      texts.push(...page.items.map((item) => item.text));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(texts).toEqual(['note 0', 'note 1', 'note 2', 'note 3', 'note 4']);

    const first = await adapter.list({ bindingKey: 'main', scope, limit: 2 });
    const nextCursor = first.nextCursor ?? '';
    await expect(adapter.list({ bindingKey: 'main', scope: { companyId: 'company-other' }, cursor: nextCursor })).rejects.toMatchObject({ reason: 'foreign' });
    await expect(adapter.list({ bindingKey: 'main', scope, cursor: nextCursor, metadataFilter: { a: 1 } })).rejects.toMatchObject({ reason: 'stale' });
    const [version, body = '', signature] = nextCursor.split('.');
    const tamperedBody = `${body.slice(0, 5)}${body[5] === 'A' ? 'B' : 'A'}${body.slice(6)}`;
    await expect(adapter.list({ bindingKey: 'main', scope, cursor: `${version}.${tamperedBody}.${signature}` })).rejects.toThrow(InvalidCursorError);
    await expect(adapter.list({ bindingKey: 'main', scope, cursor: 'not-a-cursor' })).rejects.toMatchObject({ reason: 'malformed' });
  });

  it('accepts cursors of another adapter object with the same cursor secret', async () => {
    const cursorSecret = 'a shared secret of the binding';
    const adapter = createAdapter({ cursorSecret });
    await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'one' }, { text: 'two' }] });
    const first = await adapter.list({ bindingKey: 'main', scope, limit: 1 });
    const second = await createAdapter({ cursorSecret }).list({ bindingKey: 'main', scope, limit: 1, cursor: first.nextCursor });
    expect(second.items.map((item) => item.text)).toEqual(['two']);
    await expect(createAdapter().list({ bindingKey: 'main', scope, cursor: first.nextCursor })).rejects.toMatchObject({ reason: 'tampered' });
  });

  it('forgets only records in the scope, and forgetting twice is harmless', async () => {
    const adapter = createAdapter();
    const mine = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'mine' }] });
    const theirs = await adapter.upsertRecords({ bindingKey: 'main', scope: { ...scope, agentId: 'agent-2' }, records: [{ text: 'theirs' }] });
    const handles = [...(mine.records ?? []), ...(theirs.records ?? [])];

    const result = await adapter.forget(handles, scope);
    await adapter.forget(handles, scope);

    expect(result.warnings).toEqual([]);
    expect([...api.store.records.values()].map((record) => record.text)).toEqual(['theirs']);
    const skipped = await adapter.forget([{ providerKey: 'example', providerRecordId: 'job:1' }], scope);
    expect(skipped.warnings).toEqual([{ type: 'other', message: 'Skipped handle job:1: it is not an Example record handle.' }]);
  });

  it('refuses to correct a record outside the scope or missing', async () => {
    const adapter = createAdapter();
    const written = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'Lives in Porto.' }] });
    const handle = written.records?.[0] ?? { providerKey: 'example', providerRecordId: 'record:none' };
    await expect(adapter.correct(handle, { text: 'x' }, { ...scope, agentId: 'agent-2' })).rejects.toThrow(MemoryNotFoundError);
    await expect(adapter.correct(handle, { text: 'x' }, { companyId: 'company-other' })).rejects.toThrow(MemoryNotFoundError);
    await expect(adapter.correct({ providerKey: 'example', providerRecordId: 'record:rec_999999' }, { text: 'x' }, scope)).rejects.toThrow(MemoryNotFoundError);
    expect((await adapter.get(handle, scope))?.text).toBe('Lives in Porto.');
  });

  it('captures text as one record and says the API does not extract', async () => {
    const adapter = createAdapter();
    const result = await adapter.capture({
      bindingKey: 'main',
      scope,
      source: { kind: 'issue_comment', companyId: 'company-fixture', issueId: 'issue-1', commentId: 'comment-1' },
      payload: { text: 'We ship on Fridays.', mimeType: 'text/markdown' },
      metadata: { origin: 'hook' },
    });
    expect(result.warnings).toEqual([
      { type: 'compatibility', feature: 'capture_residue', details: 'The Example API does not extract memories; the payload was stored as one record.' },
    ]);
    const snippet = await adapter.get(result.records?.[0] ?? { providerKey: '', providerRecordId: '' }, scope);
    expect(snippet).toMatchObject({ text: 'We ship on Fridays.', metadata: { origin: 'hook' }, source: { commentId: 'comment-1' } });
  });

  it('captures an object payload as JSON text with a compatibility warning', async () => {
    const adapter = createAdapter();
    const result = await adapter.capture({
      bindingKey: 'main',
      scope,
      source,
      mode: 'capture_record',
      payload: { object: { decision: 'ship', votes: 3 }, mimeType: 'application/json' },
    });
    expect(result.warnings?.map((warning) => warning.type === 'compatibility' && warning.feature)).toEqual(['payload.mimeType', 'payload.object']);
    expect([...api.store.records.values()].map((record) => record.text)).toEqual(['{"decision":"ship","votes":3}']);
  });

  it('never calls the API for a request core refuses', async () => {
    const adapter = createAdapter();
    await expect(adapter.query({ bindingKey: 'main', scope: { companyId: '' }, query: 'x' })).rejects.toThrow(MemoryValidationError);
    expect(testServer.calls).toEqual([]);
  });
});
