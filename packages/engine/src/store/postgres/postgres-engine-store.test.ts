import { afterAll, expect, it } from 'vitest';
import { describeEngineStoreContract } from '../sql/test-support/store-contract';
import { scopeOf, testItem, testMeta } from '../sql/test-support/store-fixtures';
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

describeWithPostgres('Postgres engine store refusals', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  it('refuses a NUL character (which Postgres cannot store) with a validation error, and writes nothing of the transaction', async () => {
    const schema = uniqueSchemaName('nul');
    schemas.push(schema);
    const store = createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 });
    await store.open({ ddlMode: 'create', meta: testMeta() });
    const scope = scopeOf('acme');
    await expect(store.transaction(async (tx) => tx.insertItems([testItem(scope, 'clean'), testItem(scope, 'before\u0000after')]))).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    await expect(store.insertItems([testItem(scopeOf('ac\u0000me'), 'clean')])).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    expect(await store.countItems({}, { excludeMerged: false })).toBe(0);
    await store.close();
  });
});
