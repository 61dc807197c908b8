import { afterAll } from 'vitest';
import { describeEngineStoreContract } from '../sql/test-support/store-contract';
import { describeVectorIndexContract } from '../sql/test-support/vector-index-contract';
import { itKeepsHostileScopesApart } from '../sql/test-support/hostile-scope-property';
import { createPostgresEngineStore } from './postgres-engine-store';
import { sharedPglite, uniqueSchemaName } from './test-support/postgres-test-support';

afterAll(async () => (await sharedPglite()).close());

describeEngineStoreContract('Postgres engine store on PGlite', async () => {
  const pglite = await sharedPglite();
  const schema = uniqueSchemaName('contract');
  return { store: createPostgresEngineStore({ pglite, schema }), sibling: () => createPostgresEngineStore({ pglite, schema }) };
});

describeVectorIndexContract('Postgres engine store on PGlite with pgvector', async () => {
  const pglite = await sharedPglite();
  return createPostgresEngineStore({ pglite, schema: uniqueSchemaName('vectors'), vectorIndex: { kind: 'pgvector', dimensions: 8 } });
}, 8);

itKeepsHostileScopesApart('Postgres engine store on PGlite', async () => {
  const pglite = await sharedPglite();
  return createPostgresEngineStore({ pglite, schema: uniqueSchemaName('hostile') });
}, 30);
