import { afterAll } from 'vitest';
import { describeEngineStoreContract } from '../sql/test-support/store-contract';
import { createPostgresEngineStore } from './postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from './test-support/postgres-test-support';

describeWithPostgres('Postgres engine store on PostgreSQL', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  describeEngineStoreContract('PostgreSQL server', async () => {
    const schema = uniqueSchemaName('contract');
    schemas.push(schema);
    return {
      store: createPostgresEngineStore({ connectionString: url, schema, maxConnections: 3 }),
      sibling: () => createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 }),
    };
  });
});
