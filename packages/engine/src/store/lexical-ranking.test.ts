import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rankByBm25 } from '@memplane/rules';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { rankWithWindows } from '../flows/context-windows';
import type { EngineStore, ItemFilter } from './engine-store';
import type { ItemRow } from './engine-store-rows';
import { scoreWithWindows } from './lexical-ranking';
import { ScopeLexicalIndex } from './memory/memory-lexical-index';
import { createInMemoryStore } from './memory/memory-store';
import { compareByKeyset, itemPassesFilter } from './row-filters';
import { createSqliteEngineStore } from './sqlite/sqlite-engine-store';
import { scopeOf, testItem, testMeta } from './sql/test-support/store-fixtures';
import { referenceWindowedRanking } from './test-support/windowed-bm25-reference';

// A small vocabulary, so terms repeat, documents tie and windows overlap on the same words.
const vocabulary = ['alpha', 'bravo', 'charli', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const instants = ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z', '2026-01-01T00:00:04.000Z'];
const filter: ItemFilter = { statuses: ['approved'], notExpiredAt: instants[1], excludeMerged: true };

const itemSpec = fc.record({
  scope: fc.nat({ max: 2 }),
  tokens: fc.array(fc.constantFrom(...vocabulary), { maxLength: 7 }),
  createdAt: fc.constantFrom(...instants),
  status: fc.constantFrom('approved', 'approved', 'approved', 'pending'),
  expiresAt: fc.option(fc.constantFrom(...instants), { nil: undefined }),
  // What happens to the item after all are written: nothing, deleted, re-tokenised, or used.
  fate: fc.constantFrom('kept', 'kept', 'kept', 'deleted', 'retokenised', 'used'),
  newTokens: fc.array(fc.constantFrom(...vocabulary), { maxLength: 7 }),
  id: fc.nat({ max: 999 }),
});

const scenario = fc.record({
  items: fc.uniqueArray(itemSpec, { maxLength: 40, selector: (spec) => spec.id }),
  terms: fc.uniqueArray(fc.constantFrom(...vocabulary, 'zulu'), { minLength: 1, maxLength: 4 }),
  scopes: fc.subarray([0, 1, 2], { minLength: 1 }),
  shape: fc.record({ size: fc.integer({ min: 1, max: 5 }), stride: fc.integer({ min: 1, max: 4 }), weight: fc.constantFrom(0, 0.5, 1, 3) }),
  limit: fc.integer({ min: 1, max: 30 }),
});

let runs = 0;

/** Writes a scenario's items, applies their fates, and returns the rows as they now stand. */
async function written(store: EngineStore, input: Scenario): Promise<{ items: ItemRow[]; companies: string[] }> {
  runs += 1;
  const companies = [0, 1, 2].map((index) => `run${runs}-c${index}`);
  const rows = input.items.map((spec) =>
    testItem(scopeOf(companies[spec.scope] as string), spec.tokens.join(' '), {
      id: `item-${String(spec.id).padStart(3, '0')}-${runs}`, lexicalTokens: spec.tokens, createdAt: spec.createdAt, status: spec.status, expiresAt: spec.expiresAt,
    }),
  );
  await store.insertItems(rows);
  const live = new Map(rows.map((row) => [row.id, row]));
  for (const [index, spec] of input.items.entries()) {
    const row = rows[index] as ItemRow;
    if (spec.fate === 'deleted') {
      await store.deleteItems(row.scope, [row.id]);
      live.delete(row.id);
    } else if (spec.fate === 'retokenised') {
      live.set(row.id, (await store.updateItem(row.scope, row.id, 1, { lexicalTokens: spec.newTokens })) as ItemRow);
    } else if (spec.fate === 'used') {
      await store.recordItemUse(row.scope, [row.id], instants[3] as string);
    }
  }
  return { items: [...live.values()].filter((row) => input.scopes.map((scope) => companies[scope]).includes(row.scope.companyId)), companies: input.scopes.map((scope) => companies[scope] as string) };
}

type Scenario = typeof scenario extends fc.Arbitrary<infer Value> ? Value : never;

function describeIndexedRanking(name: string, fresh: () => Promise<EngineStore>, numRuns: number): void {
  describe(`${name}: indexed lexical ranking`, () => {
    it('ranks exactly as the reference BM25 scan with neighbour windows, scores to the last bit (fast-check)', async () => {
      const store = await fresh();
      await store.open({ ddlMode: 'create', meta: testMeta() });
      try {
        await fc.assert(
          fc.asyncProperty(scenario, async (input) => {
            const { items, companies } = await written(store, input);
            const range = { companyId: companies };
            // Time moves on (items expire between reads), then back: a cached sequence must follow.
            for (const now of [instants[1], instants[2], instants[0], instants[2]]) {
              const at = { ...filter, notExpiredAt: now };
              const reference = referenceWindowedRanking(items.filter((item) => itemPassesFilter(item, at)), input.terms, input.shape, input.limit);
              const read = await store.lexicalPostings({ range, terms: input.terms, filter: at });
              expect(scoreWithWindows(read, input.terms, input.shape, input.limit).map(({ id, score }) => ({ id, score }))).toEqual(reference);
            }
            // A status change after a read: the cached sequence of that filter must go.
            const demoted = items.findIndex((item) => item.status === 'approved');
            if (demoted >= 0) {
              const before = items[demoted] as ItemRow;
              items[demoted] = (await store.updateItem(before.scope, before.id, before.version, { status: 'pending' })) as ItemRow;
            }
            const expected = referenceWindowedRanking(items.filter((item) => itemPassesFilter(item, filter)), input.terms, input.shape, input.limit);
            const again = await store.lexicalPostings({ range, terms: input.terms, filter });
            expect(scoreWithWindows(again, input.terms, input.shape, input.limit).map(({ id, score }) => ({ id, score }))).toEqual(expected);
            if (input.shape.weight > 0) {
              const ranked = await rankWithWindows(store, range, filter, input.terms, { ...input.shape, scanLimit: 1000 }, input.limit);
              expect(ranked?.map((hit) => ({ id: hit.item.id, score: hit.score }))).toEqual(expected);
            }
          }),
          { numRuns },
        );
      } finally {
        await store.close();
      }
    });
  });
}

describeIndexedRanking('in-memory store', async () => createInMemoryStore(), 300);

const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-ranking-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
describeIndexedRanking('SQLite store', async () => createSqliteEngineStore({ path: join(folder, 'ranking.db') }), 60);

describe('in-memory store: long posting lists and compaction', () => {
  it('ranks as the reference after lists outgrow their first form and deletions compact the index', async () => {
    const store = createInMemoryStore();
    const words = ['alpha', 'bravo', 'charli'];
    const rows = Array.from({ length: 400 }, (_, index) => {
      const tokens = Array.from({ length: (index * 7) % 5 }, (_, offset) => words[(index + offset * index) % 3] as string);
      return testItem(scopeOf(index % 3 === 0 ? 'big-b' : 'big-a'), tokens.join(' '), { id: `item-${(index * 37) % 400}`.padEnd(9, 'x'), lexicalTokens: tokens, createdAt: instants[index % 4] });
    });
    await store.insertItems(rows);
    // 150 deletions in one scope leave more holes than live items: the index compacts itself.
    const deleted = new Set(rows.filter((row) => row.scope.companyId === 'big-a').slice(0, 150).map((row) => row.id));
    await store.deleteItems(scopeOf('big-a'), [...deleted]);
    const live = rows.filter((row) => !deleted.has(row.id));
    for (const shape of [{ size: 4, stride: 2, weight: 3 }, { size: 3, stride: 5, weight: 1 }]) {
      const terms = ['alpha', 'charli'];
      const read = await store.lexicalPostings({ range: { companyId: ['big-a', 'big-b'] }, terms, filter });
      expect(Math.max(...[...read.postings.values()].map((list) => list.length))).toBeGreaterThan(100);
      expect(scoreWithWindows(read, terms, shape, 50).map(({ id, score }) => ({ id, score }))).toEqual(referenceWindowedRanking(live.filter((item) => itemPassesFilter(item, filter)), terms, shape, 50));
    }
  });
});

describe('in-memory store: searchLexical', () => {
  it('returns the BM25 order of the reference scan (score, then write order), truncated to the best (fast-check)', async () => {
    const store = createInMemoryStore();
    await store.open({ ddlMode: 'create', meta: testMeta() });
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const { items, companies } = await written(store, input);
        const corpus = items.filter((item) => itemPassesFilter(item, filter)).sort(compareByKeyset);
        const expected = rankByBm25(input.terms, corpus.map((item) => ({ payload: item.id, terms: item.lexicalTokens }))).slice(0, input.limit);
        const hits = await store.searchLexical({ range: { companyId: companies }, terms: input.terms, filter, limit: input.limit });
        expect(hits.map((hit) => ({ id: hit.item.id, score: hit.score }))).toEqual(expected.map((match) => ({ id: match.payload, score: match.score })));
      }),
      { numRuns: 300 },
    );
  });

  it('rebuilds the index of a scope a failed transaction touched, so a rolled-back item is never found', async () => {
    const store = createInMemoryStore();
    const scope = scopeOf('acme');
    await store.insertItems([testItem(scope, 'kept alpha')]);
    await expect(store.transaction(async (tx) => {
      await tx.insertItems([testItem(scope, 'rolled alpha back')]);
      throw new TypeError('crash');
    })).rejects.toThrow('crash');
    const hits = await store.searchLexical({ range: { companyId: ['acme'] }, terms: ['alpha'], filter: {}, limit: 10 });
    expect(hits.map((hit) => hit.item.text)).toEqual(['kept alpha']);
    const postings = await store.lexicalPostings({ range: { companyId: ['acme'] }, terms: ['alpha', 'roll'], filter: {} });
    expect(postings.sequences.map((sequence) => sequence.itemIds.length)).toEqual([1]);
    expect([...postings.postings.keys()]).toEqual(['alpha']);
  });
});

describe('in-memory index: forget', () => {
  it('drops the terms that only a deleted item held, so no token of it stays in the index', () => {
    const index = new ScopeLexicalIndex();
    const kept = testItem(scopeOf('acme'), 'shared words', { lexicalTokens: ['shared', 'word'] });
    const forgotten = testItem(scopeOf('acme'), 'shared secret', { lexicalTokens: ['shared', 'secret', 'secret'] });
    index.put(kept);
    index.put(forgotten);
    expect(index.termCount).toBe(3);
    index.remove(forgotten.id);
    expect(index.termCount).toBe(2);
    expect([...(index.read({}, ['secret', 'shared'], 0, 10)?.postings.keys() ?? [])]).toEqual(['shared']);
  });
});
