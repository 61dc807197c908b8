import type { MemoryAdapter, MemoryScope } from '@memplane/core';
import type { RecordedCall } from '@memplane/test-server';
import { describe, expect, it } from 'vitest';
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
  return calls.map((call) => ({
    method: call.method,
    path: call.pathname,
    query: call.searchParams,
    body: call.bodyJson,
  }));
}

describe('request bodies', () => {
  it('writes records with the tenant, the scope labels, metadata and source, and the API key header', async () => {
    const adapter = createAdapter();
    const result = await adapter.upsertRecords({
      bindingKey: 'main',
      scope: { ...scope, projectId: 'project-9' },
      source,
      records: [
        { text: 'Prefers dark roast coffee.', summary: 'Coffee', metadata: { confidence: 0.9 } },
        { text: 'Works from Lisbon.' },
      ],
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
    await adapter.upsertRecords({
      bindingKey: 'main',
      scope,
      records: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    });
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
    const written = await adapter.upsertRecords({
      bindingKey: 'main',
      scope,
      records: [{ text: 'Lives in Porto.', metadata: { city: 'Porto', kept: true } }],
    });
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
    expect(await adapter.get(handle, scope)).toMatchObject({
      text: 'Lives in Lisbon.',
      metadata: { city: 'Lisbon', kept: true },
    });
  });
});
