import { afterAll } from 'vitest';
import { describeEngineStoreContract } from '../sql/test-support/store-contract';
import { createPostgresEngineStore } from './postgres-engine-store';
import { sharedPglite, uniqueSchemaName } from './test-support/postgres-test-support';

afterAll(async () => (await sharedPglite()).close());

describeEngineStoreContract('Postgres engine store on PGlite', async () => {
  const pglite = await sharedPglite();
  const schema = uniqueSchemaName('contract');
  return { store: createPostgresEngineStore({ pglite, schema }), sibling: () => createPostgresEngineStore({ pglite, schema }) };
});
