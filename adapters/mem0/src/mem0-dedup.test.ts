import { setupTestServer } from '@memplane/test-server/with-vitest';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });

describe('mem0 upserts under direct-import deduplication', () => {
  it('are idempotent: a retried upsert after a lost response returns the same handles and stores nothing twice', async () => {
    const adapter = createTestAdapter(fake);
    const request = { bindingKey: 'b', scope: { companyId: 'acme', subjectId: 'alice' }, records: [{ text: 'Alice prefers tea.' }, { text: 'Alice deploys on Fridays.' }] };
    const first = await adapter.upsertRecords(request);
    const stored = fake.store.memories.size;
    // The first response was lost: the caller sends the same request again.
    const retried = await adapter.upsertRecords(request);
    expect(retried.failures).toBeUndefined();
    expect(retried.records).toEqual(first.records);
    expect(fake.store.memories.size).toBe(stored);
  });

  it('keeps the same text under two projects as two memories, each with its own scope', async () => {
    const adapter = createTestAdapter(fake);
    const text = 'The release train leaves on Thursday.';
    const apollo = { companyId: 'acme', projectId: 'apollo' };
    const gemini = { companyId: 'acme', projectId: 'gemini' };
    const [inApollo] = (await adapter.upsertRecords({ bindingKey: 'b', scope: apollo, records: [{ text }] })).records ?? [];
    const [inGemini] = (await adapter.upsertRecords({ bindingKey: 'b', scope: gemini, records: [{ text }] })).records ?? [];
    expect(inApollo).toBeDefined();
    expect(inGemini).toBeDefined();
    expect(inGemini).not.toEqual(inApollo);
    expect((await adapter.list({ bindingKey: 'b', scope: gemini })).items.map((item) => [item.text, item.scope?.projectId])).toEqual([[text, 'gemini']]);
    expect((await adapter.list({ bindingKey: 'b', scope: apollo })).items.map((item) => [item.text, item.scope?.projectId])).toEqual([[text, 'apollo']]);
  });

  it('keeps the same text with other caller metadata as another memory', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: 'acme', agentId: 'meta' };
    const text = 'Tuesdays are quiet.';
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text, metadata: { kind: 'fact' } }] });
    const second = await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text, metadata: { kind: 'preference' } }] });
    expect(second.failures).toBeUndefined();
    expect((await adapter.list({ bindingKey: 'b', scope, metadataFilter: { kind: 'preference' } })).items.map((item) => item.text)).toEqual([text]);
  });

  it('gives a record repeated within one request the handle of its one memory', async () => {
    const adapter = createTestAdapter(fake);
    const written = await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'acme', agentId: 'twice' }, records: [{ text: 'Same.' }, { text: 'Other.' }, { text: 'Same.' }] });
    expect(written.failures).toBeUndefined();
    expect(written.records).toHaveLength(3);
    expect(written.records?.[2]).toEqual(written.records?.[0]);
  });

  it('reports a record mem0 left out and does not hold as a retryable failure, never a silent success', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: 'acme', agentId: 'lossy' };
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'kept' }] });
    testServer.use(
      http.post(`${fake.host}/v3/memories/add/`, () => HttpResponse.json({ message: 'ok', results: [] }), { once: true }),
    );
    const written = await adapter.upsertRecords({ bindingKey: 'b', scope: { ...scope, issueId: 'I-1' }, records: [{ text: 'dropped' }] });
    expect(written.records).toEqual([]);
    expect(written.failures).toEqual([expect.objectContaining({ index: 0, code: 'MEMORY_INVALID_RESPONSE', isRetryable: true })]);
  });

  it('places results by position when mem0 answers every message but not with the text sent, and never throws once it answered', async () => {
    const adapter = createTestAdapter(fake);
    testServer.use(
      http.post(`${fake.host}/v3/memories/add/`, () =>
        HttpResponse.json({ message: 'ok', results: [{ id: '00000000-0000-4000-8000-00000000aa01', data: { memory: 'normalised one' }, event: 'ADD' }, { id: '00000000-0000-4000-8000-00000000aa02', event: 'ADD' }] }),
        { once: true },
      ),
    );
    const written = await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'acme', agentId: 'positional' }, records: [{ text: '  one  ' }, { text: 'two' }] });
    expect(written.failures).toBeUndefined();
    expect(written.records?.map((handle) => handle.providerRecordId)).toEqual(['memory:00000000-0000-4000-8000-00000000aa01', 'memory:00000000-0000-4000-8000-00000000aa02']);
  });
});
