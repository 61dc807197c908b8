import { mkdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { isCorruptionError } from './markdown-errors';
import { createIndexSchema, dropIndexSchema, indexSchemaVersion } from './markdown-index-schema';
import { preparePrivateSqliteFile } from './markdown-private-file';
import { MarkdownRootLock } from './markdown-root-lock';

/** An open index database and the lock that keeps other processes from replacing its files. */
export interface OpenedIndexDatabase {
  /** The database. */
  database: Database.Database;
  /** The shared lock on `.memplane/index.lock`, held while the database is open. */
  lock: MarkdownRootLock;
  /** Set when the file was not a database or was damaged and was replaced by an empty one: why. */
  replacedReason?: string;
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

function readMeta(database: Database.Database, key: string): string | undefined {
  const table = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (table === undefined) return undefined;
  const row = database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

/** The rebuild reason of a root opened without an index: a new root, or one whose index was deleted. */
export const indexDidNotExist = 'the index did not exist';

/**
 * Why the index must be rebuilt from the markdown, or undefined when it is current. Call it under
 * the write lock: what another process saw before this one got the lock may be fixed by now.
 */
export function indexRebuildReason(database: Database.Database, neighbourWindows: boolean): string | undefined {
  const version = readMeta(database, 'schema_version');
  if (version === undefined) {
    const tables = database.prepare("SELECT count(*) AS count FROM sqlite_master WHERE type = 'table'").get() as { count: number };
    return tables.count === 0 ? indexDidNotExist : 'the index had no schema version';
  }
  if (version !== indexSchemaVersion) return `the index was built by schema version ${version}, not ${indexSchemaVersion}`;
  if (readMeta(database, 'neighbour_windows') !== String(neighbourWindows)) return `neighbourWindows changed to ${neighbourWindows}`;
  return undefined;
}

/** Empties the index and creates the current schema, inside the caller's transaction. */
export function resetIndexSchema(database: Database.Database): void {
  dropIndexSchema(database);
  createIndexSchema(database);
}

/** Marks a freshly built schema with its version and the settings it was built with. */
export function stampSchemaVersion(database: Database.Database, neighbourWindows: boolean): void {
  database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(indexSchemaVersion);
  database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('neighbour_windows', ?)").run(String(neighbourWindows));
}

/**
 * Opens the file (mode 0600, like the `-wal` and `-shm` files SQLite creates beside it) and reads
 * its header, which is where a file that is not a database fails.
 */
function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
  preparePrivateSqliteFile(path);
  const database = new Database(path);
  try {
    configure(database, busyTimeoutMs);
    database.prepare("SELECT count(*) FROM sqlite_master").get();
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

/**
 * Opens the index file under the shared lock of `lockPath`. It never deletes or replaces files
 * another process may have open: an older schema is rebuilt in place by the caller, under the
 * write lock. Only a file that is not a database or is damaged is replaced, and only under the
 * exclusive lock, after checking again that it is still unreadable. Every other failure (a busy
 * lock, a missing permission, a folder in the way) is thrown for the caller to map.
 */
export function openIndexDatabase(path: string, lockPath: string, busyTimeoutMs: number, directory: string): OpenedIndexDatabase {
  mkdirSync(directory, { recursive: true });
  const lock = MarkdownRootLock.acquireShared(lockPath, busyTimeoutMs);
  try {
    try {
      return { database: openDatabase(path, busyTimeoutMs), lock };
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
    }
    return lock.withExclusive(() => {
      try {
        return { database: openDatabase(path, busyTimeoutMs), lock };
      } catch (error) {
        if (!isCorruptionError(error)) throw error;
        const code = (error as { code?: string }).code ?? 'unknown';
        // No other process holds the shared lock now, so nobody has these files open.
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
        return { database: openDatabase(path, busyTimeoutMs), lock, replacedReason: `the index could not be read (${code}: ${(error as Error).message})` };
      }
    });
  } catch (error) {
    lock.close();
    throw error;
  }
}
