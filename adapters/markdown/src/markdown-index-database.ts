import { mkdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { createIndexSchema, dropIndexSchema, indexSchemaVersion } from './markdown-index-schema';

/** An open index database, and why it must be rebuilt from the markdown, if it must. */
export interface OpenedIndexDatabase {
  /** The database. */
  database: Database.Database;
  /** Why the index is empty or unusable and needs a full rebuild; undefined when it is usable. */
  rebuildReason?: string;
}

function configure(database: Database.Database, busyTimeoutMs: number): void {
  // Loaded always, so an index with vector tables can be read, emptied and rebuilt by any process.
  sqliteVec.load(database);
  database.pragma(`busy_timeout = ${busyTimeoutMs}`);
  database.pragma('journal_mode = WAL');
  // NORMAL in WAL mode never corrupts the index; a transaction lost to a power cut is re-derived
  // from the markdown, whose writes are fsynced, on the next open.
  database.pragma('synchronous = NORMAL');
  database.pragma('temp_store = MEMORY');
  // 32 MB of page cache keeps the B-tree and FTS pages of 100k records warm during bulk writes.
  database.pragma('cache_size = -32000');
  database.pragma('wal_autocheckpoint = 8000');

}

function readSchemaVersion(database: Database.Database): string | undefined {
  const table = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (table === undefined) return undefined;
  const row = database.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row?.value;
}

function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

/** Empties the index and creates the current schema, inside the caller's transaction. */
export function resetIndexSchema(database: Database.Database): void {
  dropIndexSchema(database);
  createIndexSchema(database);
}

/** Marks a freshly built schema with its version. */
export function stampSchemaVersion(database: Database.Database): void {
  database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(indexSchemaVersion);
}

/**
 * Opens the index file. A missing file, one that is not a database or is corrupt, and one from
 * another schema version are all replaced by an empty index with `rebuildReason` set; the caller
 * rebuilds it from the markdown under the write lock.
 */
export function openIndexDatabase(path: string, busyTimeoutMs: number, directory: string): OpenedIndexDatabase {
  mkdirSync(directory, { recursive: true });
  let reason: string | undefined;
  try {
    const database = new Database(path);
    try {
      configure(database, busyTimeoutMs);
      const version = readSchemaVersion(database);
      if (version === indexSchemaVersion) return { database };
      if (version === undefined) {
        const empty = database.prepare("SELECT count(*) AS count FROM sqlite_master WHERE type = 'table'").get() as { count: number };
        reason = empty.count === 0 ? 'the index did not exist' : 'the index had no schema version';
      } else reason = `the index was built by schema version ${version}, not ${indexSchemaVersion}`;
      database.transaction(() => resetIndexSchema(database)).immediate();
      return { database, rebuildReason: reason };
    } catch (error) {
      database.close();
      throw error;
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unknown';
    reason = `the index could not be read (${code}: ${(error as Error).message})`;
  }
  removeDatabaseFiles(path);
  const database = new Database(path);
  configure(database, busyTimeoutMs);
  database.transaction(() => resetIndexSchema(database)).immediate();
  return { database, rebuildReason: reason };
}
