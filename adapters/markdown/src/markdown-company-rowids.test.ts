import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { companyBlockSize, companyRowids, RowidAllocator } from './markdown-company-rowids';
import { createIndexSchema } from './markdown-index-schema';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const temporary = useTemporaryRoots();

describe('company rowid blocks', () => {
  it('gives each company its own block and continues after the last rowid used', () => {
    const database = new Database(':memory:');
    createIndexSchema(database);
    expect(companyRowids(database, 'acme')).toBeUndefined();
    const first = new RowidAllocator(database);
    const acme = [first.take('acme'), first.take('acme')];
    const beta = first.take('beta');
    expect(acme).toEqual([companyBlockSize, companyBlockSize + 1]);
    expect(beta).toBe(2 * companyBlockSize);
    expect(companyRowids(database, 'beta')).toEqual({ first: 2 * companyBlockSize, last: 3 * companyBlockSize - 1 });
    database
      .prepare("INSERT INTO records (rowid, id, file, position, company_id, kind, status, version, dedupe_key, searchable, section) VALUES (?, 'r', 'f', 0, 'acme', 'fact', 'approved', 1, 'k', 1, '{}')")
      .run(companyBlockSize + 7);
    expect(new RowidAllocator(database).take('acme')).toBe(companyBlockSize + 8);
    database.close();
  });

  it('keeps queries inside their company after another adapter rebuilt and renumbered the index', async () => {
    const root = temporary.root();
    const writer = temporary.open({ root });
    for (const companyId of ['zeta', 'alpha', 'mid']) {
      await writer.upsertRecords({ bindingKey, scope: { companyId }, records: [{ text: `Shared harbour word for ${companyId}.` }, { text: `Only ${companyId} keeps the lighthouse.` }] });
    }
    rmSync(join(root, 'companies', 'zeta'), { recursive: true });
    const other = temporary.open({ root });
    other.rebuildIndex();
    for (const companyId of ['alpha', 'mid']) {
      const { snippets } = await writer.query({ bindingKey, scope: { companyId }, query: 'harbour lighthouse', topK: 10 });
      expect(snippets.map((snippet) => snippet.text).sort()).toEqual([`Only ${companyId} keeps the lighthouse.`, `Shared harbour word for ${companyId}.`]);
    }
    expect((await writer.query({ bindingKey, scope: { companyId: 'zeta' }, query: 'harbour lighthouse' })).snippets).toEqual([]);
  });
});
