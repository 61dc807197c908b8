import { MemoryNotFoundError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import partialRejection from './__fixtures__/create-records-partial-rejection.json';
import { createExampleAdapter } from './example-adapter';
import { setupExampleFakeServer } from './example-fake-server';
import type { ExampleAdapterSettings } from './example-settings';

const { api, testServer } = setupExampleFakeServer();

const scope: MemoryScope = { companyId: 'company-fixture', agentId: 'agent-1' };
const source = { kind: 'manual_note', companyId: 'company-fixture' } as const;

function createAdapter(settings: ExampleAdapterSettings = {}): MemoryAdapter {
  return createExampleAdapter({ apiKey: api.apiKey, baseURL: api.baseURL, retry: { maxRetries: 0 }, ...settings });
}

describe('writes', () => {
  it('splits writes into batches of 100 and keeps the request order of the handles', async () => {
    const adapter = createAdapter();
    const records = Array.from({ length: 150 }, (_, index) => ({ text: `note ${index}` }));
    const result = await adapter.upsertRecords({ bindingKey: 'main', scope, records });

    expect(testServer.calls.map((call) => (call.bodyJson as { records: unknown[] }).records.length)).toEqual([100, 50]);
    expect(result.records).toHaveLength(150);
    expect(result.usage).toHaveLength(2);
    const texts = await Promise.all(
      [0, 99, 100, 149].map((index) =>
        adapter.get(result.records?.[index] ?? { providerKey: '', providerRecordId: '' }, scope),
      ),
    );
    expect(texts.map((snippet) => snippet?.text)).toEqual(['note 0', 'note 99', 'note 100', 'note 149']);
  });

  it('reports records the API rejected as failures with core codes and request indexes', async () => {
    testServer.use(http.post(`${api.baseURL}/v1/records`, () => HttpResponse.json(partialRejection)));
    const adapter = createAdapter();
    const result = await adapter.upsertRecords({
      bindingKey: 'main',
      scope,
      records: [{ text: 'a' }, { text: 'b' }, { text: 'c' }],
    });
    expect(result.records).toEqual([{ providerKey: 'example', providerRecordId: 'record:rec_900001' }]);
    expect(result.failures).toEqual([
      { index: 1, code: 'MEMORY_VALIDATION', message: 'text contains a control character', isRetryable: false },
      { index: 2, code: 'MEMORY_RATE_LIMITED', message: 'record quota of the tenant is used up', isRetryable: true },
    ]);
  });

  it('maps a rejection code it does not know, one named like a property of every object included, to MEMORY_API_CALL', async () => {
    const codes = ['unheard_of', 'constructor', '__proto__', 'toString'];
    testServer.use(
      http.post(`${api.baseURL}/v1/records`, () =>
        HttpResponse.json({ results: codes.map((code) => ({ status: 'rejected', error: { code, message: `rejected as ${code}` } })), usage: { latency_ms: 1 } }),
      ),
    );
    const result = await createAdapter().upsertRecords({ bindingKey: 'main', scope, records: codes.map((code) => ({ text: code })) });
    expect(result.failures).toEqual(codes.map((code, index) => ({ index, code: 'MEMORY_API_CALL', message: `rejected as ${code}`, isRetryable: false })));
  });

  it('turns a failed later batch into failures, because the earlier batch is already written', async () => {
    let posts = 0;
    testServer.use(
      http.post(`${api.baseURL}/v1/records`, () => {
        posts += 1;
        return posts === 2
          ? HttpResponse.json({ error: { code: 'unavailable', message: 'down' } }, { status: 503 })
          : undefined;
      }),
    );
    const adapter = createAdapter();
    const records = Array.from({ length: 101 }, (_, index) => ({ text: `note ${index}` }));
    const result = await adapter.upsertRecords({ bindingKey: 'main', scope, records });
    expect(result.records).toHaveLength(100);
    expect(result.failures).toEqual([
      { index: 100, code: 'MEMORY_API_CALL', message: 'Example API error 503: down', isRetryable: true },
    ]);
  });

  it('forgets only records in the scope, and forgetting twice is harmless', async () => {
    const adapter = createAdapter();
    const mine = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'mine' }] });
    const theirs = await adapter.upsertRecords({
      bindingKey: 'main',
      scope: { ...scope, agentId: 'agent-2' },
      records: [{ text: 'theirs' }],
    });
    const handles = [...(mine.records ?? []), ...(theirs.records ?? [])];

    const result = await adapter.forget(handles, scope);
    await adapter.forget(handles, scope);

    expect(result.warnings).toEqual([]);
    expect([...api.store.records.values()].map((record) => record.text)).toEqual(['theirs']);
    const skipped = await adapter.forget([{ providerKey: 'example', providerRecordId: 'job:1' }], scope);
    expect(skipped.warnings).toEqual([
      { type: 'other', message: 'Skipped handle job:1: it is not an Example record handle.' },
    ]);
  });

  it('refuses to correct a record outside the scope or missing', async () => {
    const adapter = createAdapter();
    const written = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'Lives in Porto.' }] });
    const handle = written.records?.[0] ?? { providerKey: 'example', providerRecordId: 'record:none' };
    await expect(adapter.correct(handle, { text: 'x' }, { ...scope, agentId: 'agent-2' })).rejects.toThrow(
      MemoryNotFoundError,
    );
    await expect(adapter.correct(handle, { text: 'x' }, { companyId: 'company-other' })).rejects.toThrow(
      MemoryNotFoundError,
    );
    await expect(
      adapter.correct({ providerKey: 'example', providerRecordId: 'record:rec_999999' }, { text: 'x' }, scope),
    ).rejects.toThrow(MemoryNotFoundError);
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
      {
        type: 'compatibility',
        feature: 'capture_residue',
        details: 'The Example API does not extract memories; the payload was stored as one record.',
      },
    ]);
    const snippet = await adapter.get(result.records?.[0] ?? { providerKey: '', providerRecordId: '' }, scope);
    expect(snippet).toMatchObject({
      text: 'We ship on Fridays.',
      metadata: { origin: 'hook' },
      source: { commentId: 'comment-1' },
    });
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
    expect(result.warnings?.map((warning) => warning.type === 'compatibility' && warning.feature)).toEqual([
      'payload.mimeType',
      'payload.object',
    ]);
    expect([...api.store.records.values()].map((record) => record.text)).toEqual(['{"decision":"ship","votes":3}']);
  });
});
