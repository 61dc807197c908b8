import { tokenize } from '@memplane/rules';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { EngineStore } from '../engine-store';
import { nextId, scopeOf, testItem, testMeta, testResource } from '../sql/test-support/store-fixtures';
import { createPostgresEngineStore } from './postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from './test-support/postgres-test-support';

const settle = <T>(work: Array<Promise<T>>) => Promise.allSettled(work);
const codes = (results: Array<PromiseSettledResult<unknown>>) =>
  results.map((result) => (result.status === 'fulfilled' ? 'ok' : String((result.reason as { code?: unknown }).code))).sort();

describeWithPostgres('Postgres engine store with concurrent writers', (url) => {
  const schemas: string[] = [];
  const stores: EngineStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(() => dropSchemas(url, schemas));

  /** `count` stores with pools of their own on one new schema, as `count` processes would have. */
  async function writers(count: number): Promise<EngineStore[]> {
    const schema = uniqueSchemaName('writers');
    schemas.push(schema);
    const opened = Array.from({ length: count }, () => createPostgresEngineStore({ connectionString: url, schema, maxConnections: 3 }));
    stores.push(...opened);
    // Every process opens a fresh database at the same moment: the DDL lock orders them and one meta is written.
    const metas = await Promise.all(opened.map((store) => store.open({ ddlMode: 'create', meta: testMeta() })));
    expect(new Set(metas.map((meta) => JSON.stringify(meta))).size).toBe(1);
    return opened;
  }

  it('writes one resource when many writers memorize the same content at once; the others get a retryable conflict', async () => {
    const all = await writers(6);
    const scope = scopeOf('acme');
    const results = await settle(
      all.flatMap((store) =>
        [0, 1].map(() =>
          store.transaction(async (tx) => {
            const { resource, segments } = testResource(scope, ['same turn', 'same reply'], 'same-content');
            if ((await tx.findResourceByHash(scope, 'same-content', 1)) !== undefined) return 'exists';
            await tx.insertResource(resource, segments);
            await tx.insertItems([testItem(scope, 'the same fact')]);
            return 'written';
          }),
        ),
      ),
    );
    const written = results.filter((result) => result.status === 'fulfilled' && result.value === 'written');
    expect(written).toHaveLength(1);
    expect(codes(results).filter((code) => code !== 'ok').every((code) => code === 'MEMORY_CONFLICT')).toBe(true);
    // Nothing of a losing transaction remains: one item, one resource, its segments only.
    expect(await all[0]!.countItems({ companyId: ['acme'] }, {})).toBe(1);
    const resource = await all[0]!.findResourceByHash(scope, 'same-content', 1);
    expect((await all[0]!.getSegments(scope, resource!.id)).map((segment) => segment.text)).toEqual(['same turn', 'same reply']);
  });

  it('lets exactly one of many concurrent updates of one item version win', async () => {
    const all = await writers(5);
    const scope = scopeOf('acme');
    const item = testItem(scope, 'Deploys happen on Tuesdays.');
    await all[0]!.insertItems([item]);
    const results = await settle(all.flatMap((store, index) => [store.updateItem(scope, item.id, 1, { text: `Deploys happen on day ${index}.`, lexicalTokens: tokenize(`day ${index}`) })]));
    expect(codes(results)).toEqual(['MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'ok']);
    const stored = (await all[1]!.getItems(scope, [item.id])).get(item.id)!;
    expect(stored.version).toBe(2);
    // The winner's terms are the only ones indexed.
    const hits = await all[2]!.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('day'), filter: {}, limit: 5 });
    expect(hits.map((hit) => hit.item.text)).toEqual([stored.text]);
  });

  it('keeps every item of writers inserting in parallel, and one intention per version', async () => {
    const all = await writers(4);
    const scope = scopeOf('acme', 'p-parallel');
    await Promise.all(
      all.map((store, writer) =>
        Promise.all(Array.from({ length: 5 }, (_, batch) => store.insertItems(Array.from({ length: 10 }, (_, index) => testItem(scope, `writer ${writer} batch ${batch} note ${index} parallel`))))),
      ),
    );
    expect(await all[3]!.countItems({ companyId: ['acme'], projectId: ['p-parallel'] }, {})).toBe(200);
    expect(await all[0]!.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('parallel'), filter: {}, limit: 500 })).toHaveLength(200);
    const intention = { scope, version: 1, goals: ['ship'], constraints: [], progress: [], categoryKeys: [], sourceItemIds: [], pipelineRevision: 1, createdAt: '2026-01-01T00:00:00.000Z' };
    const results = await settle(all.map((store) => store.insertIntention({ ...intention, id: nextId('int') })));
    expect(codes(results)).toEqual(['MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'ok']);
    const revisions = await settle(all.map((store) => store.appendPipelineRevision({ revision: 1, change: 'defaults', definition: {}, definitionHash: 'h', createdAt: '2026-01-01T00:00:00.000Z' })));
    expect(codes(revisions)).toEqual(['MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'MEMORY_CONFLICT', 'ok']);
  });
});
