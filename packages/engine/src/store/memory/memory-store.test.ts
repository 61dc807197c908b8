import { MemoryConflictError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { tokenize } from '@memplane/rules';
import type { RunLogRow } from '../engine-store-rows';
import { scopeOf, testItem, testMeta } from '../sql/test-support/store-fixtures';
import { createInMemoryStore } from './memory-store';

const run = (id: string): RunLogRow => ({
  id, flow: 'retrieve', status: 'ok', pipelineRevision: 1, scopeRange: {}, inputSummary: '', outputSummary: '', steps: [], llmUsage: [], failures: [], startedAt: 't', finishedAt: 't',
});

describe('in-memory store', () => {
  it('undoes the lexical index with a failed transaction: postings, statistics, windows and places', async () => {
    const kept = [testItem(scopeOf('acme'), 'billing deploys on tuesday'), testItem(scopeOf('acme'), 'the release train leaves on friday')];
    const rolledBack = [testItem(scopeOf('acme'), 'billing billing zanzibar'), testItem(scopeOf('acme'), 'zanzibar release')];
    const request = (terms: string) => ({ range: { companyId: ['acme'] }, terms: tokenize(terms), filter: {}, windowWeight: 3, limit: 10 });
    const store = createInMemoryStore();
    await store.open({ ddlMode: 'create', meta: testMeta() });
    await store.insertItems(kept);
    const failing = store.transaction(async (tx) => {
      await tx.insertItems(rolledBack);
      await tx.deleteItems(scopeOf('acme'), [kept[0]!.id]);
      throw new MemoryConflictError({ message: 'lost' });
    });
    await expect(failing).rejects.toSatisfy((error: unknown) => MemoryConflictError.isInstance(error));
    expect(await store.searchLexical(request('zanzibar'))).toEqual([]);
    // The same scores as a store that only ever held the kept items, and the next write takes the place the rolled-back one had.
    const fresh = createInMemoryStore();
    await fresh.open({ ddlMode: 'create', meta: testMeta() });
    await fresh.insertItems(kept);
    const later = testItem(scopeOf('acme'), 'billing on monday');
    await store.insertItems([later]);
    await fresh.insertItems([later]);
    const scores = async (of: typeof store) => (await of.searchLexical(request('billing release'))).map((hit) => [hit.item.id, hit.score]);
    expect(await scores(store)).toEqual(await scores(fresh));
    expect((await scores(store)).length).toBe(3);
  });


  it('rolls a failed transaction back without undoing a write made outside it meanwhile', async () => {
    const store = createInMemoryStore();
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const inside = new Promise<void>((resolve) => { started = resolve; });
    const failing = store.transaction(async (tx) => {
      await tx.appendRun(run('inside'));
      started();
      await gate;
      throw new MemoryConflictError({ message: 'lost' });
    });
    await inside;
    const outside = store.appendRun(run('outside'));
    release();
    await expect(failing).rejects.toSatisfy((error: unknown) => MemoryConflictError.isInstance(error));
    await outside;
    expect((await store.listRuns({ limit: 10 })).map((row) => row.id)).toEqual(['outside']);
  });

  it('undoes every write of a failed transaction: items (and their scope index), categories, intentions, revisions', async () => {
    const store = createInMemoryStore();
    const scope = { org: 'a' };
    const item = {
      id: 'item_1', scope, text: 't', kind: 'note', status: 'approved', piiRisk: 0, confidence: 1, stability: 1, version: 1, evidence: [], categoryKeys: ['c'], metadata: {},
      lexicalTokens: ['t'], textHash: 'h', useCount: 0, scopeSchemaHash: 's', taxonomyVersion: 'v', pipelineRevision: 1, createdAt: 't', updatedAt: 't',
    } as const;
    await store.insertItems([{ ...item, id: 'item_0' }]);
    const attempt = store.transaction(async (tx) => {
      await tx.insertItems([item]);
      await tx.updateItem(scope, 'item_0', 1, { text: 'changed' });
      await tx.deleteItems(scope, ['item_0']);
      await tx.upsertCategories([{ scope, key: 'c', name: 'C', description: '', anchorItemIds: ['item_1'], itemCount: 1, taxonomyVersion: 'v', updatedAt: 't' }]);
      await tx.insertIntention({ id: 'int_1', scope, version: 1, goals: ['g'], constraints: [], progress: [], categoryKeys: [], sourceItemIds: ['item_1'], pipelineRevision: 1, createdAt: 't' });
      await tx.appendPipelineRevision({ revision: 1, change: 'x', definition: {}, definitionHash: 'd', createdAt: 't' });
      throw new MemoryConflictError({ message: 'abort' });
    });
    await expect(attempt).rejects.toThrow('abort');
    const range = { org: ['a'] };
    expect((await store.listItems(range, {}, { limit: 10 })).map((row) => [row.id, row.text, row.version])).toEqual([['item_0', 't', 1]]);
    expect(await store.countItems(range, {})).toBe(1);
    expect(await store.listCategories(range)).toEqual([]);
    expect(await store.getLatestIntention(scope)).toBeUndefined();
    expect(await store.listPipelineRevisions()).toEqual([]);
  });

  it('hands out frozen copies: a caller cannot change what the store holds', async () => {
    const store = createInMemoryStore();
    const original = run('a');
    await store.appendRun(original);
    (original as { id: string }).id = 'changed';
    const [stored] = await store.listRuns({ limit: 1 });
    expect(stored?.id).toBe('a');
    expect(Object.isFrozen(stored)).toBe(true);
  });
});
