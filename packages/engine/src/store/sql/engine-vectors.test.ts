import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryEngine } from '../../engine/create-memory-engine';
import { letterCountEmbedder } from '../../testing/mock-models';
import type { EngineStore } from '../engine-store';
import { createPostgresEngineStore } from '../postgres/postgres-engine-store';
import { sharedPglite, uniqueSchemaName } from '../postgres/test-support/postgres-test-support';
import { createSqliteEngineStore } from '../sqlite/sqlite-engine-store';

const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-vectors-'));
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await (await sharedPglite()).close();
});

/**
 * The engine takes a store's vector index when it is created, before it opens the store: the SQL
 * stores hand it out from the start, so memorize embeds into it and retrieve searches it.
 */
async function embedsThroughTheStoresIndex(store: EngineStore): Promise<void> {
  const index = store.vectorIndex;
  expect(index?.name).toMatch(/sqlite-bruteforce|pgvector-hnsw/);
  const engine = await createMemoryEngine({ scope: z.object({ companyId: z.string() }), store, profiles: { default: { embeddingModel: letterCountEmbedder() } } });
  const memorized = await engine.memorize({ companyId: 'acme' }, { type: 'conversation', messages: [{ role: 'user', content: 'I moved to Lisbon in May.' }] });
  const vectors = await index!.get({ companyId: 'acme' }, memorized.itemIds, (await store.getItems({ companyId: 'acme' }, memorized.itemIds)).get(memorized.itemIds[0]!)!.embeddingModel!);
  expect(vectors.size).toBe(memorized.itemIds.length);
  const hits = await index!.search({ range: { companyId: ['acme'] }, model: [...(await store.getItems({ companyId: 'acme' }, memorized.itemIds)).values()][0]!.embeddingModel!, vector: vectors.get(memorized.itemIds[0]!)!, limit: 1 });
  expect(hits.map((hit) => hit.itemId)).toEqual([memorized.itemIds[0]]);
  await store.close();
}

it('SQLite: the engine embeds into the store vector index it took before open', async () => {
  await embedsThroughTheStoresIndex(createSqliteEngineStore({ path: join(folder, 'vectors.db') }));
});

it('PGlite with pgvector: the engine embeds into the store vector index it took before open', async () => {
  const dimensions = (await letterCountEmbedder().doEmbed({ values: ['x'] })).embeddings[0]!.length;
  await embedsThroughTheStoresIndex(createPostgresEngineStore({ pglite: await sharedPglite(), schema: uniqueSchemaName('vectors'), vectorIndex: { kind: 'pgvector', dimensions } }));
});
