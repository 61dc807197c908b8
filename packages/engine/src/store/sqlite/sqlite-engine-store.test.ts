import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeEngineStoreContract } from '../sql/test-support/store-contract';
import { describeVectorIndexContract } from '../sql/test-support/vector-index-contract';
import { itKeepsHostileScopesApart } from '../sql/test-support/hostile-scope-property';
import { createSqliteEngineStore } from './sqlite-engine-store';

const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

describeEngineStoreContract('SQLite engine store', async () => {
  files += 1;
  const path = join(folder, `engine-${files}.db`);
  return { store: createSqliteEngineStore({ path }), sibling: () => createSqliteEngineStore({ path }) };
});

describeVectorIndexContract('SQLite engine store', async () => {
  files += 1;
  return createSqliteEngineStore({ path: join(folder, `engine-${files}.db`) });
}, 8);

itKeepsHostileScopesApart('SQLite engine store', async () => {
  files += 1;
  return createSqliteEngineStore({ path: join(folder, `engine-${files}.db`) });
}, 60);
