import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { afterAll } from 'vitest';
import { createEngineAdapter } from '../../adapter/engine-adapter';
import { letterCountEmbedder } from '../../testing/mock-models';
import type { EngineStore } from '../engine-store';
import { createPostgresEngineStore } from './postgres-engine-store';
import { sharedPglite, uniqueSchemaName } from './test-support/postgres-test-support';

const stores: EngineStore[] = [];
let latest = '';
afterAll(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await (await sharedPglite()).close();
});

/** The engine on PGlite with a pgvector HNSW index and an embedding model, so every rule also runs the vector path. */
async function adapterOn(schema: string) {
  const embeddingModel = letterCountEmbedder();
  const dimensions = (await embeddingModel.doEmbed({ values: ['x'] })).embeddings[0]!.length;
  const store = createPostgresEngineStore({ pglite: await sharedPglite(), schema, vectorIndex: { kind: 'pgvector', dimensions } });
  stores.push(store);
  return createEngineAdapter({ store, profiles: { default: { embeddingModel } }, cursorSecret: 'conformance-secret' });
}

describeMemoryAdapterConformance({
  name: '@memplane/engine on PGlite with pgvector',
  createAdapter: () => {
    latest = uniqueSchemaName('conformance');
    return adapterOn(latest);
  },
  createPeerAdapter: () => adapterOn(latest),
});
