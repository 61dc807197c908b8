import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { queryTerms } from '@memplane/rules';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceMetaRow } from '../engine-store-rows';
import { createInMemoryStore } from '../memory/memory-store';
import { createSqliteEngineStore } from './sqlite-engine-store';

/** A store written by @memplane/engine 0.1.0: its own term table (`item_terms`), no full-text index. */
const released = join(dirname(fileURLToPath(import.meta.url)), '../../testing/fixtures/sqlite-store-written-by-0.1.0.db');
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function copyOfReleased(): string {
  const directory = mkdtempSync(join(tmpdir(), 'engine-migration-'));
  directories.push(directory);
  const path = join(directory, 'engine.db');
  copyFileSync(released, path);
  return path;
}

function tablesOf(path: string): string[] {
  const database = new Database(path, { readonly: true });
  try {
    return database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  } finally {
    database.close();
  }
}

/** The meta the file records, read without opening a store. */
function recordedMeta(path: string): ServiceMetaRow {
  const database = new Database(path, { readonly: true });
  try {
    const row = database.prepare('SELECT * FROM service_meta').get() as Record<string, string | number>;
    return {
      scopeSchemaHash: String(row.scope_schema_hash),
      scopeFields: JSON.parse(String(row.scope_fields)),
      boundaryFields: JSON.parse(String(row.boundary_fields)),
      ddlVersion: Number(row.ddl_version),
      taxonomyVersion: String(row.taxonomy_version),
      providerSummary: JSON.parse(String(row.provider_summary)),
      createdAt: String(row.created_at),
    };
  } finally {
    database.close();
  }
}

describe('a SQLite store written by the 0.1.0 release', () => {
  it('is indexed on open, in write order, and then ranks as a store written today', async () => {
    const path = copyOfReleased();
    expect(tablesOf(path)).toContain('item_terms');
    const meta = recordedMeta(path);
    const store = createSqliteEngineStore({ path, vectorIndex: 'none' });
    await store.open({ ddlMode: 'create', meta });
    const tables = tablesOf(path);
    expect(tables).not.toContain('item_terms');
    expect(tables).toEqual(expect.arrayContaining(['item_text_fts', 'item_text_terms', 'item_text_totals', 'item_text_windows', 'item_places']));

    const items = await store.listItems({}, { excludeMerged: false }, { limit: 1000 });
    expect(items.length).toBe(17);
    const today = createInMemoryStore();
    await today.open({ ddlMode: 'create', meta });
    await today.insertItems(items);
    let found = 0;
    for (const range of [{ org: ['acme'] }, { org: ['acme'], project: ['apollo'] }, { org: ['acme', 'globex'] }]) {
      for (const query of ['when does billing deploy', 'invoice Lisbon', 'rollback migration', 'hermes team']) {
        const request = { range, terms: queryTerms(query), filter: {}, windowWeight: 3, limit: 10 };
        const migrated = (await store.searchLexical(request)).map((hit) => [hit.item.id, hit.score]);
        found += migrated.length;
        expect(migrated, `${query} in ${JSON.stringify(range)}`).toEqual((await today.searchLexical(request)).map((hit) => [hit.item.id, hit.score]));
      }
    }
    expect(found).toBeGreaterThan(40);
    await store.close();

    // A second open finds the index built and changes nothing.
    const again = createSqliteEngineStore({ path, vectorIndex: 'none' });
    await again.open({ ddlMode: 'validate', meta });
    expect((await again.searchLexical({ range: { org: ['acme'] }, terms: queryTerms('billing'), filter: {}, limit: 10 })).length).toBeGreaterThan(0);
    await again.close();
  });

  it('refuses to open without the index in validate mode, and writes nothing', async () => {
    const path = copyOfReleased();
    const store = createSqliteEngineStore({ path, vectorIndex: 'none' });
    await expect(store.open({ ddlMode: 'validate', meta: recordedMeta(path) })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    await store.close();
    expect(tablesOf(path)).toContain('item_terms');
    expect(tablesOf(path)).not.toContain('item_places');
  });
});
