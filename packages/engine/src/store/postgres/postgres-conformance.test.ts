import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { afterAll } from 'vitest';
import { createEngineAdapter } from '../../adapter/engine-adapter';
import type { EngineStore } from '../engine-store';
import { createPostgresEngineStore } from './postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from './test-support/postgres-test-support';

describeWithPostgres('engine conformance on PostgreSQL', (url) => {
  const schemas: string[] = [];
  const stores: EngineStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await dropSchemas(url, schemas);
  });

  /** An engine adapter on a schema; the peer opens a second pool on the same schema, as another process would. */
  async function adapterOn(schema: string) {
    const store = createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 });
    stores.push(store);
    return createEngineAdapter({ store, cursorSecret: 'conformance-secret' });
  }

  describeMemoryAdapterConformance({
    name: '@memplane/engine on PostgreSQL 15',
    createAdapter: async () => {
      // Each rule gets fresh adapters: the previous rule's pools are closed, so the suite holds a
      // few connections at a time, not hundreds (the server's limit is shared with other test files).
      await Promise.all(stores.splice(0).map((store) => store.close()));
      schemas.push(uniqueSchemaName('conformance'));
      return adapterOn(schemas.at(-1)!);
    },
    createPeerAdapter: () => adapterOn(schemas.at(-1)!),
  });
});
