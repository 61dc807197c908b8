import { InvalidCursorError, MemoryValidationError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
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

describe('reads', () => {
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

  it('drops a record of another tenant itself and says so in a warning', async () => {
    testServer.use(http.post(`${api.baseURL}/v1/search`, () => HttpResponse.json(searchWithForeignRecord)));
    const adapter = createAdapter();
    const bundle = await adapter.query({
      bindingKey: 'main',
      scope: { companyId: 'company-fixture' },
      query: 'deploy',
    });

    expect(bundle.snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual([
      'record:rec_900011',
      'record:rec_900012',
    ]);
    expect(bundle.warnings).toEqual([
      {
        type: 'scope_violation',
        providerRecordId: 'record:rec_900010',
        details: 'the Example API returned a record of another tenant',
      },
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
    const bundle = await adapter.query({
      bindingKey: 'main',
      scope,
      query: 'morning coffee',
      metadataFilter: { topic: 'drinks' },
    });
    expect(bundle.snippets.map((snippet) => [snippet.text, snippet.score])).toEqual([
      ['Drinks coffee in the morning.', 1],
      ['Morning coffee must be dark roast coffee.', 1],
    ]);
    expect(bundle.usage?.[0]).toMatchObject({ provider: 'example', embeddingTokens: 2, model: 'example-embed-1' });
  });

  it('warns that the API ignores the query intent', async () => {
    const bundle = await createAdapter().query({
      bindingKey: 'main',
      scope,
      query: 'anything',
      intent: 'agent_preamble',
    });
    expect(bundle.warnings).toEqual([
      { type: 'unsupported', feature: 'intent', details: 'The Example API ranks every query the same way.' },
    ]);
  });

  it('pages through a listing with cursors bound to the scope and the filter', async () => {
    const adapter = createAdapter();
    await adapter.upsertRecords({
      bindingKey: 'main',
      scope,
      records: Array.from({ length: 5 }, (_, index) => ({ text: `note ${index}` })),
    });
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
    await expect(
      adapter.list({ bindingKey: 'main', scope: { companyId: 'company-other' }, cursor: nextCursor }),
    ).rejects.toMatchObject({ reason: 'foreign' });
    await expect(
      adapter.list({ bindingKey: 'main', scope, cursor: nextCursor, metadataFilter: { a: 1 } }),
    ).rejects.toMatchObject({ reason: 'stale' });
    const [version, body = '', signature] = nextCursor.split('.');
    const tamperedBody = `${body.slice(0, 5)}${body[5] === 'A' ? 'B' : 'A'}${body.slice(6)}`;
    await expect(
      adapter.list({ bindingKey: 'main', scope, cursor: `${version}.${tamperedBody}.${signature}` }),
    ).rejects.toThrow(InvalidCursorError);
    await expect(adapter.list({ bindingKey: 'main', scope, cursor: 'not-a-cursor' })).rejects.toMatchObject({
      reason: 'malformed',
    });
  });

  it('accepts cursors of another adapter object with the same cursor secret', async () => {
    const cursorSecret = 'a shared secret of the binding';
    const adapter = createAdapter({ cursorSecret });
    await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'one' }, { text: 'two' }] });
    const first = await adapter.list({ bindingKey: 'main', scope, limit: 1 });
    const second = await createAdapter({ cursorSecret }).list({
      bindingKey: 'main',
      scope,
      limit: 1,
      cursor: first.nextCursor,
    });
    expect(second.items.map((item) => item.text)).toEqual(['two']);
    await expect(createAdapter().list({ bindingKey: 'main', scope, cursor: first.nextCursor })).rejects.toMatchObject({
      reason: 'tampered',
    });
  });

  it('never calls the API for a request core refuses', async () => {
    const adapter = createAdapter();
    await expect(adapter.query({ bindingKey: 'main', scope: { companyId: '' }, query: 'x' })).rejects.toThrow(
      MemoryValidationError,
    );
    expect(testServer.calls).toEqual([]);
  });
});
