import { MemoryApiCallError, MemoryConflictError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { toSupermemoryContainerTag } from './supermemory-container-tag';
import { fakeApiKey, fakeBaseURL, setupSupermemoryFake } from './testing/supermemory-test-setup';

/**
 * The adapter over readings of Supermemory that its docs leave open: extracted memories
 * related to their document (no metadata copy), a memory list that ignores `filters`, list
 * entries without `metadata`, the 0.5 threshold a search without one gets, and chunk-shaped hits.
 */
const environment = setupSupermemoryFake();
const { fake, testServer } = environment;
const bindingKey = 'safe-readings';
let counter = 0;

function freshScope(fields: Partial<MemoryScope> = {}): MemoryScope {
  counter += 1;
  return { companyId: `safe-reading-co-${counter}`, ...fields };
}

const sourceOf = (scope: MemoryScope) => ({ kind: 'issue_comment' as const, companyId: scope.companyId, issueId: 'ISS-9' });

async function captureAndSettle(adapter: MemoryAdapter, scope: MemoryScope, text: string) {
  const captured = await adapter.capture({ bindingKey, scope, source: sourceOf(scope), payload: { text } });
  fake.store.settle();
  const [handle] = captured.records ?? [];
  if (handle === undefined) throw new TypeError('a document handle was expected');
  return handle;
}

describe('captured residue, related to its document rather than carrying its metadata', () => {
  it('passes the company check through the document, and stays out of other scopes', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope({ agentId: 'planner' });
    await captureAndSettle(adapter, scope, 'The release train leaves on Thursday.\n\nHotfixes skip the train.');
    const extracted = [...fake.store.memories.values()].filter((memory) => memory.containerTag === toSupermemoryContainerTag(scope.companyId));
    expect(extracted.map((memory) => memory.metadata)).toEqual([{}, {}]);

    const listed = await adapter.list({ bindingKey, scope });
    expect(listed.items.map((item) => item.text).sort()).toEqual(['Hotfixes skip the train.', 'The release train leaves on Thursday.']);
    expect(listed.items[0]).toMatchObject({ source: sourceOf(scope), scope });
    const found = await adapter.query({ bindingKey, scope, query: 'release train Thursday' });
    expect(found.snippets.map((snippet) => snippet.text)).toContain('The release train leaves on Thursday.');
    const [first] = listed.items;
    expect(await adapter.get(first!.handle, scope)).toMatchObject({ text: first!.text, source: sourceOf(scope) });

    expect((await adapter.list({ bindingKey, scope: { ...scope, agentId: 'reviewer' } })).items).toEqual([]);
    expect((await adapter.list({ bindingKey, scope: freshScope() })).items).toEqual([]);
  });

  it('forgetting the capture forgets every memory extracted from it', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const handle = await captureAndSettle(adapter, scope, 'Backups run at midnight.\n\nRestores are tested monthly.');
    const documentId = handle.providerRecordId.slice('doc:'.length);
    const derived = () => [...fake.store.memories.values()].filter((memory) => memory.documentIds.includes(documentId));
    expect(derived()).toHaveLength(2);
    await adapter.forget([handle], scope);
    expect(derived().every((memory) => memory.isForgotten)).toBe(true);
    expect(fake.store.documents.has(documentId)).toBe(false);
    expect((await adapter.list({ bindingKey, scope })).items).toEqual([]);
  });
});

describe('forgetting a capture that is still being processed', () => {
  it('deletes nothing and throws a retryable conflict, so no memory extracted later outlives the forget', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const captured = await adapter.capture({ bindingKey, scope, source: sourceOf(scope), payload: { text: 'Deploys freeze on Fridays.' } });
    const [handle] = captured.records ?? [];
    const documentId = handle!.providerRecordId.slice('doc:'.length);
    const document = fake.store.documents.get(documentId)!;
    document.visible = true;
    document.status = 'extracting';
    await expect(adapter.forget([handle!], scope)).rejects.toSatisfy((error) => MemoryConflictError.isInstance(error) && error.isRetryable);
    expect(fake.store.documents.has(documentId)).toBe(true);
    fake.store.settle();
    const derived = [...fake.store.memories.values()].filter((memory) => memory.documentIds.includes(documentId));
    expect(derived).toHaveLength(1);
    await adapter.forget([handle!], scope);
    expect(derived.every((memory) => memory.isForgotten)).toBe(true);
    expect(fake.store.documents.has(documentId)).toBe(false);
  });

  it('says nothing about a capture of another company, whatever its status', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const captured = await adapter.capture({ bindingKey, scope, source: sourceOf(scope), payload: { text: 'Deploys freeze on Fridays.' } });
    const [handle] = captured.records ?? [];
    const document = fake.store.documents.get(handle!.providerRecordId.slice('doc:'.length))!;
    document.visible = true;
    document.status = 'extracting';
    await expect(adapter.forget([handle!], freshScope())).resolves.toMatchObject({ warnings: [] });
    expect(fake.store.documents.has(document.id)).toBe(true);
  });
});

describe('a memory list that ignores order', () => {
  // The scan for a capture's extracted memories asks for newest first and stops at the first
  // entry older than the document. Oldest first, it would stop on page 1 and miss them.
  async function captureAfterOlderEntries(adapter: MemoryAdapter, scope: MemoryScope, sameTimestamp: boolean) {
    const tag = toSupermemoryContainerTag(scope.companyId);
    const older = fake.store.createMemories(tag, Array.from({ length: 150 }, (_, index) => ({ content: `older ${index}`, metadata: { mp_companyId: scope.companyId } }))).memories;
    if (sameTimestamp) for (const memory of older) memory.createdAt = older[0]!.createdAt;
    const handle = await captureAndSettle(adapter, scope, 'Backups run at midnight.\n\nRestores are tested monthly.');
    const documentId = handle.providerRecordId.slice('doc:'.length);
    const derived = () => [...fake.store.memories.values()].filter((memory) => memory.documentIds.includes(documentId));
    expect(derived()).toHaveLength(2);
    return { handle, documentId, derived };
  }

  for (const sameTimestamp of [false, true]) {
    it(`keeps the capture and throws, never forgetting part of it, when the list comes oldest first (${sameTimestamp ? 'older entries sharing one timestamp' : 'distinct timestamps'})`, async () => {
      const adapter = environment.createAdapter();
      const scope = freshScope();
      const { handle, documentId, derived } = await captureAfterOlderEntries(adapter, scope, sameTimestamp);
      fake.misbehaviour.ignoreOrder = true;
      try {
        await expect(adapter.forget([handle], scope)).rejects.toSatisfy(
          (error) => MemoryApiCallError.isInstance(error) && !error.isRetryable && /newest-first order/.test(error.message),
        );
      } finally {
        fake.misbehaviour.ignoreOrder = false;
      }
      expect(fake.store.documents.has(documentId)).toBe(true);
      expect(derived().some((memory) => memory.isForgotten)).toBe(false);
      // With the order honoured, the same forget removes the document and what came from it.
      await adapter.forget([handle], scope);
      expect(derived().every((memory) => memory.isForgotten)).toBe(true);
      expect(fake.store.documents.has(documentId)).toBe(false);
    });
  }
});

describe('a memory list that ignores filters', () => {
  it('never reports a record missing, or forgotten, while it may still be stored', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const tag = toSupermemoryContainerTag(scope.companyId);
    // 2,100 entries written before the record, by memplane for the same company.
    for (let batch = 0; batch < 21; batch += 1) {
      fake.store.createMemories(tag, Array.from({ length: 100 }, (_, index) => ({ content: `filler ${batch}-${index}`, metadata: { mp_companyId: scope.companyId } })));
    }
    const [handle] = (await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The one record that matters.' }] })).records ?? [];
    fake.misbehaviour.ignoreFilters = true;
    try {
      await expect(adapter.get(handle!, scope)).rejects.toSatisfy((error) => MemoryApiCallError.isInstance(error) && /could not be proven/.test(error.message));
      await expect(adapter.forget([handle!], scope)).rejects.toSatisfy(MemoryApiCallError.isInstance);
      await expect(adapter.correct(handle!, { text: 'changed' }, scope)).rejects.toSatisfy(MemoryApiCallError.isInstance);
    } finally {
      fake.misbehaviour.ignoreFilters = false;
    }
    const stored = [...fake.store.memories.values()].find((memory) => memory.memory === 'The one record that matters.');
    expect(stored?.isForgotten).toBe(false);
    // With the filter honoured, the same handle reads and forgets in one call each.
    expect(await adapter.get(handle!, scope)).toMatchObject({ text: 'The one record that matters.' });
    await adapter.forget([handle!], scope);
    expect(stored?.isForgotten).toBe(true);
  });
});

describe('list entries without a metadata key', () => {
  it('are dropped with a warning, and never fail the page', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Marked record.' }] });
    fake.store.createMemories(toSupermemoryContainerTag(scope.companyId), [{ content: 'An entry written outside memplane, with no metadata.' }]);
    fake.misbehaviour.ignoreFilters = true;
    try {
      const page = await adapter.list({ bindingKey, scope });
      expect(page.items.map((item) => item.text)).toEqual(['Marked record.']);
      expect(page.warnings).toContainEqual(expect.objectContaining({ type: 'scope_violation' }));
    } finally {
      fake.misbehaviour.ignoreFilters = false;
    }
  });
});

describe('search', () => {
  it('the fake drops hits under 0.5 when a search sends no threshold, as Supermemory documents', async () => {
    const scope = freshScope();
    await environment.createAdapter().upsertRecords({ bindingKey, scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    const search = (threshold?: number) =>
      fetch(`${fakeBaseURL}/v4/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakeApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ q: 'when do deploys happen usually', containerTag: toSupermemoryContainerTag(scope.companyId), ...(threshold === undefined ? {} : { threshold }) }),
      }).then(async (response) => ((await response.json()) as { results: Array<{ similarity: number }> }).results.map((hit) => hit.similarity));
    expect(await search()).toEqual([]);
    expect(await search(0)).toEqual([0.4]);
  });

  it('returns the best topK however weak by default (a relevant record at similarity 0.4 included), and searchThreshold filters', async () => {
    const scope = freshScope();
    await environment.createAdapter().upsertRecords({ bindingKey, scope, records: [{ text: 'Deploys happen on Tuesdays.' }, { text: 'Lunch is at noon.' }] });
    // Two of the query's five words: similarity 0.4, under Supermemory's default threshold of 0.5.
    const query = { bindingKey, scope, query: 'when do deploys happen usually', topK: 5 };
    const found = await environment.createAdapter().query(query);
    // Supermemory's similarity stays as the raw score; the only snippet is the answer's best.
    expect(found.snippets.map((snippet) => [snippet.text, snippet.rawScore, snippet.score])).toEqual([['Deploys happen on Tuesdays.', 0.4, 1]]);
    expect((await environment.createAdapter({ searchThreshold: 0.5 }).query(query)).snippets).toEqual([]);
  });

  it('lets topK alone limit what comes back, best first', async () => {
    const scope = freshScope();
    const texts = ['alpha', 'alpha beta', 'alpha beta gamma', 'alpha beta gamma delta', 'alpha beta gamma delta epsilon', 'alpha beta gamma delta epsilon zeta', 'alpha beta gamma delta epsilon zeta eta'];
    await environment.createAdapter().upsertRecords({ bindingKey, scope, records: texts.map((text) => ({ text })) });
    const found = await environment.createAdapter().query({ bindingKey, scope, query: 'alpha beta gamma delta epsilon zeta eta theta iota kappa', topK: 5 });
    expect(found.snippets.map((snippet) => snippet.text)).toEqual(texts.slice(2).reverse());
    expect(found.snippets.at(-1)?.rawScore).toBe(0.3);
  });

  it('gives a chunk hit the handle of its document, which get and forget can use', async () => {
    const adapter = environment.createAdapter();
    const scope = freshScope();
    const handle = await captureAndSettle(adapter, scope, 'Chunked runbook text.');
    const documentId = handle.providerRecordId.slice('doc:'.length);
    const document = fake.store.documents.get(documentId)!;
    testServer.use(
      http.post(`${fakeBaseURL}/v4/search`, () =>
        HttpResponse.json({
          results: [
            { id: 'chunk_1', chunk: 'Chunked runbook text.', similarity: 0.9, metadata: document.metadata, updatedAt: document.updatedAt, documents: [{ id: documentId, createdAt: document.createdAt, updatedAt: document.updatedAt, metadata: document.metadata }] },
            { id: 'chunk_2', chunk: 'A chunk without its document.', similarity: 0.8, metadata: document.metadata, updatedAt: document.updatedAt },
          ],
          timing: 3,
          total: 2,
        }),
      { once: true },
      ),
    );
    const bundle = await adapter.query({ bindingKey, scope, query: 'runbook' });
    expect(bundle.snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual([`doc:${documentId}`]);
    expect(bundle.warnings).toContainEqual(expect.objectContaining({ type: 'compatibility', feature: 'search' }));
    expect(await adapter.get(bundle.snippets[0]!.handle, scope)).toMatchObject({ text: 'Chunked runbook text.' });
  });
});
