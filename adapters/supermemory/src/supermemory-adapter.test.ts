import type { MemoryAdapter, MemoryScope } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { toSupermemoryContainerTag } from './supermemory-container-tag';
import { callsAfterNow, setupSupermemoryFake } from './testing/supermemory-test-setup';

const environment = setupSupermemoryFake();
const { fake, testServer } = environment;
let counter = 0;

function freshScope(fields: Partial<MemoryScope> = {}): MemoryScope {
  counter += 1;
  return { companyId: `adapter-test-company-${counter}-${Date.now()}`, ...fields };
}

const bindingKey = 'tests';
const source = (scope: MemoryScope) => ({ kind: 'issue_comment' as const, companyId: scope.companyId, issueId: 'ISS-7', commentId: 'c-1' });

async function write(adapter: MemoryAdapter, scope: MemoryScope, texts: string[], metadata?: Record<string, unknown>) {
  const result = await adapter.upsertRecords({
    bindingKey,
    scope,
    source: source(scope),
    records: texts.map((text) => ({ text, ...(metadata === undefined ? {} : { metadata }) })),
  });
  return result.records ?? [];
}

describe('handles', () => {
  it('say which Supermemory id space they hold, and a handle of one kind never reaches the other kind of endpoint', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const [memoryHandle] = await write(adapter, scope, ['Deploys happen on Tuesdays.']);
    const captured = await adapter.capture({ bindingKey, scope, source: source(scope), payload: { text: 'The staging database is rebuilt nightly.' } });
    const [documentHandle] = captured.records ?? [];
    expect(memoryHandle?.providerRecordId).toMatch(/^mem:[A-Za-z0-9_-]+:/);
    expect(documentHandle?.providerRecordId).toMatch(/^doc:/);
    fake.store.settle();

    const memoryId = memoryHandle?.providerRecordId.split(':').at(-1) ?? '';
    const calls = callsAfterNow(testServer);
    // A document handle holding a memory id goes to documents.get, which does not know it: null, not a wrong record.
    expect(await adapter.get({ providerKey: 'supermemory', providerRecordId: `doc:${memoryId}` }, scope)).toBeNull();
    expect(calls().map((call) => `${call.method} ${call.pathname}`)).toEqual([`GET /v3/documents/${memoryId}`]);

    const readDocument = await adapter.get(documentHandle!, scope);
    expect(readDocument).toMatchObject({ text: 'The staging database is rebuilt nightly.', source: source(scope), scope });
    const readMemory = await adapter.get(memoryHandle!, scope);
    expect(readMemory).toMatchObject({ text: 'Deploys happen on Tuesdays.', handle: memoryHandle, source: source(scope) });
  });
});

describe('tenant boundary', () => {
  it('drops a record of another company that Supermemory returns in the company container, with a scope_violation warning', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    await write(adapter, scope, ['Quarterly planning notes about budget.']);
    const tag = toSupermemoryContainerTag(scope.companyId);
    // A faulty provider: entries in A's container that belong to another company, or carry no company at all.
    fake.store.createMemories(tag, [
      { content: 'Foreign budget secret.', metadata: { mp_companyId: 'someone-else', mp_origin: 'record' } },
      { content: 'Unmarked budget entry.', metadata: { note: 'written outside memplane' } },
    ]);
    fake.misbehaviour.ignoreFilters = true;
    try {
      const bundle = await adapter.query({ bindingKey, scope, query: 'budget' });
      expect(bundle.snippets.map((snippet) => snippet.text)).toEqual(['Quarterly planning notes about budget.']);
      expect(bundle.warnings?.filter((warning) => warning.type === 'scope_violation')).toHaveLength(2);
      const page = await adapter.list({ bindingKey, scope });
      expect(page.items.map((item) => item.text)).toEqual(['Quarterly planning notes about budget.']);
      expect(page.warnings?.filter((warning) => warning.type === 'scope_violation')).toHaveLength(2);
    } finally {
      fake.misbehaviour.ignoreFilters = false;
    }
    // With filters honoured, Supermemory already leaves them out: the first line of defence.
    expect((await adapter.query({ bindingKey, scope, query: 'budget' })).warnings).toEqual([]);
  });

  it('sends the company container tag and the scope filter on every read', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope({ agentId: 'planner' });
    await adapter.query({ bindingKey, scope, query: 'anything' });
    await adapter.list({ bindingKey, scope });
    const tag = toSupermemoryContainerTag(scope.companyId);
    const [search, list] = testServer.calls.map((call) => call.bodyJson as Record<string, unknown>);
    const expectedFilter = { AND: [{ key: 'mp_companyId', value: scope.companyId }, { key: 'mp_agentId', value: 'planner' }] };
    expect(search).toMatchObject({ containerTag: tag, filters: expectedFilter });
    expect(list).toMatchObject({ containerTags: [tag], filters: expectedFilter });
  });
});

describe('forget and correct', () => {
  it('never returns a forgotten memory through query, list or get, although Supermemory keeps it (soft delete)', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const [kept, forgotten] = await write(adapter, scope, ['Kept fact about lunch.', 'Forgotten fact about lunch.']);
    await adapter.forget([forgotten!], scope);
    const stored = [...fake.store.memories.values()].find((memory) => memory.memory === 'Forgotten fact about lunch.');
    expect(stored?.isForgotten).toBe(true);
    expect((await adapter.query({ bindingKey, scope, query: 'lunch' })).snippets.map((snippet) => snippet.text)).toEqual(['Kept fact about lunch.']);
    expect((await adapter.list({ bindingKey, scope })).items.map((item) => item.handle)).toEqual([kept]);
    expect(await adapter.get(forgotten!, scope)).toBeNull();
    await expect(adapter.forget([forgotten!], scope)).resolves.toMatchObject({ warnings: [] });
  });

  it('forgetting a captured document deletes it and forgets the memories extracted from it', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const captured = await adapter.capture({ bindingKey, scope, source: source(scope), payload: { text: 'Alpha paragraph on caching.\n\nBeta paragraph on caching.' } });
    fake.store.settle();
    expect((await adapter.list({ bindingKey, scope })).items).toHaveLength(2);
    await adapter.forget(captured.records ?? [], scope);
    expect((await adapter.list({ bindingKey, scope })).items).toEqual([]);
    expect((await adapter.query({ bindingKey, scope, query: 'caching' })).snippets).toEqual([]);
    expect(await adapter.get(captured.records![0]!, scope)).toBeNull();
  });

  it('correct makes a new version: the old handle reads the latest version, and list shows only the latest', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const [handle] = await write(adapter, scope, ['The office opens at 8.'], { kind: 'fact', owner: 'ops' });
    const corrected = await adapter.correct(handle!, { text: 'The office opens at 9.', metadata: { owner: 'facilities' }, reason: 'new hours' }, scope);
    expect(corrected.supersedes).toEqual(handle);
    expect(corrected.record).not.toEqual(handle);
    const latest = await adapter.get(handle!, scope);
    expect(latest).toMatchObject({ text: 'The office opens at 9.', handle: corrected.record, metadata: { kind: 'fact', owner: 'facilities' } });
    expect((await adapter.list({ bindingKey, scope })).items.map((item) => item.text)).toEqual(['The office opens at 9.']);
    const versions = [...fake.store.memories.values()].filter((memory) => memory.memory.startsWith('The office opens'));
    expect(versions.map((memory) => [memory.version, memory.isLatest])).toEqual([[1, false], [2, true]]);
  });
});

describe('capture and extraction jobs', () => {
  it('reports honest statuses while Supermemory processes the document, including the 404 right after add', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const captured = await adapter.capture({ bindingKey, scope, source: source(scope), payload: { text: 'A decision about retries.' } });
    const [job] = captured.jobs ?? [];
    expect(job?.status).toBe('queued');
    const statuses: string[] = [];
    for (let poll = 0; poll < 8; poll += 1) statuses.push((await adapter.getExtractionJob(job!.providerJobId, scope)).job?.status ?? 'null');
    // 404 (not visible yet) → queued; then extracting, chunking, embedding, indexing → running; done → succeeded.
    expect(statuses).toEqual(['queued', 'running', 'running', 'running', 'running', 'succeeded', 'succeeded', 'succeeded']);
    const finished = await adapter.getExtractionJob(job!.providerJobId, scope);
    expect(finished.job).toMatchObject({ status: 'succeeded', source: source(scope), finishedAt: expect.any(String) });
    expect((await adapter.listExtractionJobs(scope)).items.map((listed) => listed.providerJobId)).toEqual([job!.providerJobId]);
  });

  it('treats a 404 as "no such job" once the grace period is over or when the job id was not issued for this company', async () => {
    const adapter = environment.createAdapter({ extractionNotFoundGraceMs: 0 });
    const scope = freshScope();
    const captured = await adapter.capture({ bindingKey, scope, source: source(scope), payload: { text: 'Late document.' } });
    const jobId = captured.jobs![0]!.providerJobId;
    const [documentId, time] = jobId.split('@');
    expect((await adapter.getExtractionJob(`${documentId}@${time}@forgedsignature`, scope)).job).toBeNull();
  });
});

describe('metadata filters and provider limits', () => {
  it('applies filter values Supermemory cannot filter on (arrays, objects) after retrieval, exactly', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    await write(adapter, scope, ['Tagged alpha note.'], { tags: ['alpha', 'beta'], kind: 'note' });
    await write(adapter, scope, ['Tagged gamma note.'], { tags: ['gamma'], kind: 'note' });
    const filtered = await adapter.list({ bindingKey, scope, metadataFilter: { kind: 'note', tags: ['gamma'] } });
    expect(filtered.items.map((item) => item.text)).toEqual(['Tagged gamma note.']);
    const queried = await adapter.query({ bindingKey, scope, query: 'tagged note', metadataFilter: { tags: ['alpha', 'beta'] } });
    expect(queried.snippets.map((snippet) => snippet.text)).toEqual(['Tagged alpha note.']);
  });

  it('returns records over the 10,000-character limit as failures and writes the rest', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const result = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'short one' }, { text: 'x'.repeat(10_001) }, { text: 'short two' }] });
    expect(result.records).toHaveLength(2);
    expect(result.failures).toEqual([expect.objectContaining({ index: 1, code: 'MEMORY_VALIDATION', isRetryable: false })]);
  });

  it('splits large writes into calls of at most 100 memories and walks lists larger than one provider page', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const handles = await write(adapter, scope, Array.from({ length: 230 }, (_, index) => `Bulk record number ${index}.`));
    expect(handles).toHaveLength(230);
    const creates = testServer.calls.filter((call) => call.method === 'POST' && call.pathname === '/v4/memories');
    expect(creates.map((call) => (call.bodyJson as { memories: unknown[] }).memories.length)).toEqual([100, 100, 30]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await adapter.list({ bindingKey, scope, limit: 200, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.items.length).toBeLessThanOrEqual(200);
      seen.push(...page.items.map((item) => item.handle.providerRecordId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(handles.map((handle) => handle.providerRecordId));
    const listBodies = testServer.calls.filter((call) => call.pathname === '/v4/memories/list').map((call) => call.bodyJson as { limit: number });
    expect(listBodies.every((body) => body.limit <= 100)).toBe(true);
  });
});

describe('usage', () => {
  it('measures latency, carries Supermemory timing in details and raw, sets billing, and invents no counter', async () => {
    const adapter = environment.createAdapter({ billingType: 'subscription_included', attributionMode: 'included_in_run' });
    const scope = freshScope();
    const bundle = await adapter.query({ bindingKey, scope, query: 'anything' });
    expect(bundle.usage).toEqual([
      {
        provider: 'supermemory',
        billingType: 'subscription_included',
        attributionMode: 'included_in_run',
        latencyMs: expect.any(Number),
        details: { serverTimingMs: 12 },
        raw: { timing: 12 },
      },
    ]);
    const page = await adapter.list({ bindingKey, scope });
    expect(page.usage?.[0]).toEqual({ provider: 'supermemory', billingType: 'subscription_included', attributionMode: 'included_in_run', latencyMs: expect.any(Number) });
  });
});

describe('profile', () => {
  it('summarises the container with scope filters and says that it has no items', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope({ agentId: 'planner' });
    await write(adapter, scope, ['Planner prefers short answers.']);
    await write(adapter, { ...scope, agentId: 'reviewer' }, ['Reviewer prefers long answers.']);
    const profile = await adapter.profile(scope);
    expect(profile.summary).toBe('Planner prefers short answers.');
    expect(profile.items).toBeUndefined();
  });
});

describe('capture_record', () => {
  it('writes the payload as one memory entry at once, and refuses one over Supermemory\'s limit naming payload.text', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const result = await adapter.capture({ bindingKey, scope, source: source(scope), mode: 'capture_record', payload: { text: 'Recorded as is.' }, metadata: { kind: 'note' } });
    expect(result.jobs).toBeUndefined();
    expect(result.records?.[0]?.providerRecordId).toMatch(/^mem:/);
    expect(await adapter.get(result.records![0]!, scope)).toMatchObject({ text: 'Recorded as is.', metadata: { kind: 'note' }, source: source(scope) });
    await expect(
      adapter.capture({ bindingKey, scope, source: source(scope), mode: 'capture_record', payload: { text: 'y'.repeat(10_001) } }),
    ).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', field: 'payload.text' });
  });
});
