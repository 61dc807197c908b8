import Database from 'better-sqlite3';
import fc from 'fast-check';
import { tokenize } from '@memplane/rules';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineStore, LexicalSearchRequest } from '../engine-store';
import type { ItemRow } from '../engine-store-rows';
import { createInMemoryStore } from '../memory/memory-store';
import { createPostgresEngineStore } from '../postgres/postgres-engine-store';
import { describeWithPostgres, dropSchemas, sharedPglite, uniqueSchemaName } from '../postgres/test-support/postgres-test-support';
import { scopeOf, testItem, testMeta } from '../sql/test-support/store-fixtures';
import { createSqliteEngineStore } from '../sqlite/sqlite-engine-store';

const vocabulary = ['deploy', 'billing', 'tuesday', 'friday', 'release', 'database', 'migration', 'customer', 'invoice', 'rollback', 'staging', 'incident', 'review', 'lisbon', 'budget', 'hiring'];

/** A fixed corpus: 3 companies, 2 projects, 2 agents; texts drawn with a fixed seed. */
const corpus: ItemRow[] = fc
  .sample(
    fc.record({ company: fc.constantFrom('acme', 'globex', 'initech'), project: fc.constantFrom('p1', 'p2'), agent: fc.constantFrom('a1', 'a2'), words: fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 12 }), pending: fc.boolean() }),
    { seed: 20261129, numRuns: 600 },
  )
  .map((spec) => testItem(scopeOf(spec.company, spec.project, spec.agent), spec.words.join(' '), { status: spec.pending ? 'pending' : 'approved' }));

/** Writes the corpus, then forgets some items and rewrites others, the same way on every store. */
async function written(store: EngineStore): Promise<EngineStore> {
  await store.open({ ddlMode: 'create', meta: testMeta() });
  for (let start = 0; start < corpus.length; start += 100) await store.insertItems(corpus.slice(start, start + 100));
  for (const item of corpus.filter((_, at) => at % 17 === 0)) await store.deleteItems(item.scope, [item.id]);
  for (const item of corpus.filter((_, at) => at % 23 === 1)) {
    const text = `${item.text} rollback rollback`;
    await store.updateItem(item.scope, item.id, item.version, { text, lexicalTokens: tokenize(text) });
  }
  return store;
}

const queries = fc.sample(fc.uniqueArray(fc.constantFrom(...vocabulary, 'zebra'), { minLength: 1, maxLength: 4 }), { seed: 7, numRuns: 25 });
const ranges = [{ companyId: ['acme'] }, { companyId: ['acme'], projectId: ['p2'] }, { companyId: ['acme', 'globex'], agentId: ['a1'] }, { companyId: ['initech'], projectId: ['p1'], agentId: ['a2'] }];
const requests: LexicalSearchRequest[] = queries.flatMap((terms) =>
  ranges.flatMap((range) => [0, 3].map((windowWeight) => ({ range, terms, filter: { statuses: ['approved' as const] }, windowWeight, limit: 10 }))),
);

/** The top 10 of every request: ids, with scores rounded below the last bits a sum order may change. */
async function rankings(store: EngineStore): Promise<Array<Array<[string, number]>>> {
  const found = [];
  for (const request of requests) found.push((await store.searchLexical(request)).map((hit): [string, number] => [hit.item.id, Number(hit.score.toFixed(9))]));
  await store.close();
  return found;
}

const reference = rankings(await written(createInMemoryStore()));

describe('lexical rankings agree across stores (fixed corpus, 200 searches, top 10)', () => {
  it('finds results, with windows changing the order', async () => {
    const found = await reference;
    expect(found.filter((ranked) => ranked.length === 10).length).toBeGreaterThan(100);
    expect(found.some((ranked, at) => at % 2 === 1 && JSON.stringify(ranked) !== JSON.stringify(found[at - 1]))).toBe(true);
  });

  it('SQLite (FTS5) ranks as the in-memory index', async () => {
    const database = new Database(':memory:');
    expect(await rankings(await written(createSqliteEngineStore({ database, vectorIndex: 'none' })))).toEqual(await reference);
    database.close();
  });

  it('Postgres on PGlite ranks as the in-memory index', async () => {
    const store = createPostgresEngineStore({ pglite: await sharedPglite(), schema: uniqueSchemaName('agreement') });
    expect(await rankings(await written(store))).toEqual(await reference);
  });
});

describeWithPostgres('lexical rankings agree on PostgreSQL 15', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  it('ranks as the in-memory index', async () => {
    const schema = uniqueSchemaName('agreement');
    schemas.push(schema);
    expect(await rankings(await written(createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 })))).toEqual(await reference);
  });
});
