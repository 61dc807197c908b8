import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { checkOperationPagingAgainstPlainFilter } from '../../testing/operation-paging-property';
import { createSqliteMemoryServiceStore } from './sqlite-memory-service-store';

const directory = mkdtempSync(join(tmpdir(), 'memplane-operation-paging-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('SQLite operation log pages', () => {
  it('walk every filter and combination exactly as a plain filter over the appended entries (fast-check)', async () => {
    const store = createSqliteMemoryServiceStore({ filename: join(directory, 'paging.db') });
    await store.migrate();
    try {
      await checkOperationPagingAgainstPlainFilter(store, 150);
    } finally {
      await store.close();
    }
  });
});
