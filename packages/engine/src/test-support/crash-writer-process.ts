/**
 * A child process for the crash tests: opens an engine store from the environment, starts a
 * memorize-shaped transaction (resource, segments, items), says `mid-transaction`, and hangs
 * until the test kills it. `MEMPLANE_TEST_BACKEND` is `sqlite` (with `MEMPLANE_TEST_SQLITE_PATH`)
 * or `postgres` (with `MEMPLANE_TEST_POSTGRES_URL` and `MEMPLANE_TEST_SCHEMA`).
 */
import { createPostgresEngineStore } from '../store/postgres/postgres-engine-store';
import { scopeOf, testItem, testMeta, testResource } from '../store/sql/test-support/store-fixtures';
import { createSqliteEngineStore } from '../store/sqlite/sqlite-engine-store';

const environment = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new TypeError(`The crash writer needs ${name}.`);
  return value;
};

const store =
  environment('MEMPLANE_TEST_BACKEND') === 'sqlite'
    ? createSqliteEngineStore({ path: environment('MEMPLANE_TEST_SQLITE_PATH') })
    : createPostgresEngineStore({ connectionString: environment('MEMPLANE_TEST_POSTGRES_URL'), schema: environment('MEMPLANE_TEST_SCHEMA'), maxConnections: 1 });
await store.open({ ddlMode: 'create', meta: testMeta() });
const scope = scopeOf('acme');
const { resource, segments } = testResource(scope, ['I moved to Lisbon in May.', 'Noted.'], 'crash-hash');
await store.transaction(async (tx) => {
  await tx.insertResource(resource, segments);
  await tx.insertItems([testItem(scope, 'The user moved to Lisbon in May.'), testItem(scope, 'The user lives in Lisbon.')]);
  process.send?.({ type: 'mid-transaction', resourceId: resource.id });
  // Never commits: the test kills this process here.
  await new Promise<never>(() => undefined);
});
