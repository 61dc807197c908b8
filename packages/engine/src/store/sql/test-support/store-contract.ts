import { MemoryError, type JsonValue } from '@memplane/core';
import { rankByBm25, tokenize } from '@memplane/rules';
import { describe, expect, it } from 'vitest';
import type { EngineStore } from '../../engine-store';
import { nextId, scopeOf, testItem, testMeta, testResource } from './store-fixtures';

/** A fresh, unopened store on a database of its own, and a way to open another store on the same database. */
export interface StoreUnderTest {
  readonly store: EngineStore;
  /** A second store on the same database (another process would open it so). */
  sibling(): EngineStore;
}

/**
 * The behaviour every SQL backend must show, run against SQLite, PGlite and PostgreSQL 15 alike:
 * provisioning and validation, every layer's reads and writes, conflicts, scope isolation,
 * BM25 order and rollback.
 */
export function describeEngineStoreContract(name: string, fresh: () => Promise<StoreUnderTest>): void {
  const opened = async () => {
    const subject = await fresh();
    await subject.store.open({ ddlMode: 'create', meta: testMeta() });
    return subject;
  };

  describe(`${name}: provisioning`, () => {
    it('records the service meta on create, keeps it on a second open, and validates against it', async () => {
      const { store, sibling } = await fresh();
      const meta = await store.open({ ddlMode: 'create', meta: testMeta() });
      expect(meta).toEqual(testMeta());
      expect(await store.getServiceMeta()).toEqual(testMeta());
      const again = sibling();
      expect(await again.open({ ddlMode: 'validate', meta: testMeta({ createdAt: '2030-01-01T00:00:00.000Z' }) })).toEqual(testMeta());
      await again.close();
      await store.close();
    });

    it('refuses, in validate and in create mode, a scope schema other than the recorded one', async () => {
      const { store, sibling } = await fresh();
      await store.open({ ddlMode: 'create', meta: testMeta() });
      for (const ddlMode of ['validate', 'create'] as const) {
        const other = sibling();
        await expect(other.open({ ddlMode, meta: testMeta({ scopeSchemaHash: 'another-hash', scopeFields: ['companyId', 'teamId'] }) })).rejects.toMatchObject({
          code: 'MEMORY_CONFIGURATION',
          message: expect.stringContaining('scope schema'),
        });
        await other.close();
      }
      await store.close();
    });

    it('refuses validate mode on a database that was never provisioned, and creates nothing there', async () => {
      const { store } = await fresh();
      await expect(store.open({ ddlMode: 'validate', meta: testMeta() })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
      await expect(store.open({ ddlMode: 'validate', meta: testMeta() })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
      await store.close();
    });

    it('refuses a call before open with a typed error', async () => {
      const { store } = await fresh();
      await expect(store.countItems({}, {})).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
      await store.close();
    });
  });

  describe(`${name}: layers`, () => {
    it('stores a resource with its segments once per content hash and revision; a second insert is a conflict', async () => {
      const { store } = await opened();
      const scope = scopeOf('acme');
      const { resource, segments } = testResource(scope, ['I moved to Lisbon.', 'Nice, since when?']);
      await store.insertResource(resource, segments);
      expect(await store.findResourceByHash(scope, resource.contentHash, 1)).toEqual(resource);
      expect(await store.findResourceByHash(scopeOf('other'), resource.contentHash, 1)).toBeUndefined();
      expect(await store.findResourceByHash(scope, resource.contentHash, 2)).toBeUndefined();
      expect((await store.getSegments(scope, resource.id)).map((segment) => segment.text)).toEqual(['I moved to Lisbon.', 'Nice, since when?']);
      const duplicate = testResource(scope, ['other'], resource.contentHash).resource;
      await expect(store.insertResource(duplicate, [])).rejects.toMatchObject({ code: 'MEMORY_CONFLICT', isRetryable: true });
      expect(await store.deleteResource(scopeOf('other'), resource.id)).toBe(false);
      expect(await store.deleteResource(scope, resource.id)).toBe(true);
      expect(await store.getResource(scope, resource.id)).toBeUndefined();
      expect(await store.getSegments(scope, resource.id)).toEqual([]);
      await store.close();
    });

    it('round-trips items, updates them under optimistic versions, and deletes them with their terms', async () => {
      const { store } = await opened();
      const scope = scopeOf('acme');
      const item = testItem(scope, 'Deploys happen on Tuesdays.', { metadata: { tier: 1, tags: ['ops'] }, categoryKeys: ['work'], summary: 'deploy day' });
      await store.insertItems([item]);
      expect((await store.getItems(scope, [item.id])).get(item.id)).toEqual(item);
      expect((await store.getItems(scopeOf('other'), [item.id])).size).toBe(0);
      const updated = await store.updateItem(scope, item.id, 1, { text: 'Deploys happen on Wednesdays.', lexicalTokens: tokenize('Deploys happen on Wednesdays.'), summary: undefined });
      expect(updated).toMatchObject({ version: 2, text: 'Deploys happen on Wednesdays.', summary: undefined });
      await expect(store.updateItem(scope, item.id, 1, { status: 'rejected' })).rejects.toMatchObject({ code: 'MEMORY_CONFLICT' });
      expect(await store.updateItem(scopeOf('other'), item.id, 2, { status: 'rejected' })).toBeUndefined();
      const hits = await store.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('wednesday'), filter: {}, limit: 5 });
      expect(hits.map((hit) => hit.item.id)).toEqual([item.id]);
      expect(await store.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('tuesday'), filter: {}, limit: 5 })).toEqual([]);
      expect(await store.deleteItems(scopeOf('other'), [item.id])).toEqual([]);
      expect(await store.deleteItems(scope, [item.id, 'missing'])).toEqual([item.id]);
      expect(await store.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('wednesday'), filter: {}, limit: 5 })).toEqual([]);
      await store.close();
    });

    it('lists by keyset, counts and filters by status, kind, category, expiry, merge and JSON-typed metadata', async () => {
      const { store } = await opened();
      const scope = scopeOf('acme');
      const items = [
        testItem(scope, 'one', { metadata: { n: 1 } }),
        testItem(scope, 'two', { metadata: { n: '1' }, status: 'pending' }),
        testItem(scope, 'three', { metadata: { n: true }, kind: 'todo', expiresAt: '2026-02-01T00:00:00.000Z' }),
        testItem(scope, 'four', { metadata: { n: { deep: [1, 'x'] } }, categoryKeys: ['work', 'home'] }),
        testItem(scope, 'five', { mergedInto: 'x' }),
      ];
      await store.insertItems(items);
      const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
      const first = await store.listItems({ companyId: ['acme'] }, {}, { limit: 2 });
      const last = first.at(-1)!;
      const second = await store.listItems({ companyId: ['acme'] }, {}, { limit: 10, after: { createdAt: last.createdAt, id: last.id } });
      expect([...ids(first), ...ids(second)]).toEqual(ids(items.slice(0, 4)));
      expect(await store.countItems({ companyId: ['acme'] }, { excludeMerged: false })).toBe(5);
      expect(ids(await store.listItems({ companyId: ['acme'] }, { statuses: ['pending'] }, { limit: 10 }))).toEqual([items[1]!.id]);
      expect(ids(await store.listItems({ companyId: ['acme'] }, { kinds: ['todo'] }, { limit: 10 }))).toEqual([items[2]!.id]);
      expect(ids(await store.listItems({ companyId: ['acme'] }, { categoryKey: 'home' }, { limit: 10 }))).toEqual([items[3]!.id]);
      expect(await store.countItems({ companyId: ['acme'] }, { notExpiredAt: '2026-03-01T00:00:00.000Z' })).toBe(3);
      const cases: Array<[JsonValue, number]> = [[1, 0], ['1', 1], [true, 2], [{ deep: [1, 'x'] }, 3]];
      for (const [value, index] of cases) {
        expect(ids(await store.listItems({ companyId: ['acme'] }, { metadataEquals: { n: value } }, { limit: 10 }))).toEqual([items[index]!.id]);
      }
      expect(await store.countItems({ companyId: ['acme'] }, { metadataEquals: { "n') OR 1=1 --": 1 } })).toBe(0);
      expect(ids(await store.findItemsByTextHash(scope, ['hash:two', 'hash:none']))).toEqual([items[1]!.id]);
      await store.recordItemUse(scope, [items[0]!.id], '2026-05-01T00:00:00.000Z');
      expect((await store.getItems(scope, [items[0]!.id])).get(items[0]!.id)).toMatchObject({ useCount: 1, lastUsedAt: '2026-05-01T00:00:00.000Z', version: 1 });
      await store.close();
    });

    it('ranks lexical candidates in the order of the shared BM25 and keeps the best when truncating', async () => {
      const { store } = await opened();
      const scope = scopeOf('acme');
      const texts = ['the deploy runs on tuesday', 'deploy deploy deploy rollback', 'lunch on tuesday with the team', 'rollback plan for the deploy on friday', 'nothing related here'];
      const items = texts.map((text) => testItem(scope, text));
      await store.insertItems([...items, testItem(scopeOf('other'), 'deploy rollback tuesday')]);
      const terms = [...new Set(tokenize('deploy rollback tuesday'))];
      const reference = rankByBm25(terms, items.map((item) => ({ payload: item.id, terms: item.lexicalTokens }))).map((match) => match.payload);
      const hits = await store.searchLexical({ range: { companyId: ['acme'], projectId: ['p1'] }, terms, filter: {}, limit: 10 });
      expect(hits.map((hit) => hit.item.id)).toEqual(reference);
      const top = await store.searchLexical({ range: { companyId: ['acme'] }, terms, filter: {}, limit: 2 });
      expect(top.map((hit) => hit.item.id)).toEqual(reference.slice(0, 2));
      await store.close();
    });

    it('upserts categories per scope, versions intentions per scope, appends pipeline revisions in order and logs runs', async () => {
      const { store } = await opened();
      const scope = scopeOf('acme');
      const category = { scope, key: 'work', name: 'Work', description: 'job', anchorItemIds: [], itemCount: 0, taxonomyVersion: 't1', updatedAt: '2026-01-01T00:00:00.000Z' };
      await store.upsertCategories([category, { ...category, scope: scopeOf('other') }]);
      await store.upsertCategories([{ ...category, summary: 'ships weekly', itemCount: 3 }]);
      expect(await store.getCategory(scope, 'work')).toEqual({ ...category, summary: 'ships weekly', itemCount: 3 });
      expect((await store.listCategories({ companyId: ['acme'] })).length).toBe(1);
      const intention = { id: nextId('int'), scope, version: 1, goals: ['ship'], constraints: [], progress: [], categoryKeys: ['work'], sourceItemIds: [], pipelineRevision: 1, createdAt: '2026-01-01T00:00:00.000Z' };
      await store.insertIntention(intention);
      await expect(store.insertIntention({ ...intention, id: nextId('int') })).rejects.toMatchObject({ code: 'MEMORY_CONFLICT' });
      await store.insertIntention({ ...intention, id: nextId('int'), version: 2, goals: ['ship v2'] });
      await store.insertIntention({ ...intention, id: nextId('int'), scope: scopeOf('acme', 'p2') });
      expect((await store.getLatestIntention(scope))?.goals).toEqual(['ship v2']);
      expect((await store.listLatestIntentions({ companyId: ['acme'] })).map((row) => [row.scope.projectId, row.version])).toEqual([['p1', 2], ['p2', 1]]);
      const revision = { revision: 1, change: 'defaults', definition: { memorize: ['a'] }, definitionHash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' };
      await store.appendPipelineRevision(revision);
      await expect(store.appendPipelineRevision({ ...revision, revision: 3 })).rejects.toMatchObject({ code: 'MEMORY_CONFLICT' });
      await store.appendPipelineRevision({ ...revision, revision: 2, change: 'config extract_items' });
      expect((await store.listPipelineRevisions()).map((row) => row.revision)).toEqual([1, 2]);
      const run = { id: nextId('run'), flow: 'memorize' as const, status: 'ok' as const, pipelineRevision: 2, scopeRange: { companyId: ['acme'] }, inputSummary: 'in', outputSummary: 'out', steps: [], llmUsage: [], failures: [], startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z' };
      await store.appendRun(run);
      await store.appendRun({ ...run, id: nextId('run'), flow: 'retrieve', startedAt: '2026-01-02T00:00:00.000Z' });
      expect((await store.listRuns({ limit: 10 })).map((row) => row.flow)).toEqual(['retrieve', 'memorize']);
      expect(await store.listRuns({ flow: 'memorize', limit: 10 })).toEqual([run]);
      await store.close();
    });

    it('rolls back every write of a transaction that fails half way (no half memorize)', async () => {
      const { store } = await opened();
      const scope = scopeOf('acme');
      const { resource, segments } = testResource(scope, ['a turn']);
      const failure = new MemoryError('MEMORY_API_CALL', { message: 'the extraction step failed' });
      await expect(
        store.transaction(async (tx) => {
          await tx.insertResource(resource, segments);
          await tx.insertItems([testItem(scope, 'half written')]);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await store.getResource(scope, resource.id)).toBeUndefined();
      expect(await store.countItems({ companyId: ['acme'] }, {})).toBe(0);
      expect(await store.searchLexical({ range: { companyId: ['acme'] }, terms: ['half'], filter: {}, limit: 5 })).toEqual([]);
      await store.close();
    });
  });
}
