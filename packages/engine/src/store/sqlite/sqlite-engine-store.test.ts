import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeEngineStoreContract } from '../sql/test-support/store-contract';
import { createSqliteEngineStore } from './sqlite-engine-store';

const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

describeEngineStoreContract('SQLite engine store', async () => {
  files += 1;
  const path = join(folder, `engine-${files}.db`);
  return { store: createSqliteEngineStore({ path }), sibling: () => createSqliteEngineStore({ path }) };
});
