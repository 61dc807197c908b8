import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { createStoreFixtures } from '@memplane/service/testing';
import { openMemplaneHost } from '../open-memplane-host';
import { dataFolderSqliteFileName } from './open-data-folder-service';

// Every file is created as permissively as the process allows: umask 0 and a folder open to all.
let previousUmask: number;
let folder: string;
beforeEach(() => {
  previousUmask = process.umask(0);
  folder = mkdtempSync(join(tmpdir(), 'memplane-file-modes-'));
  chmodSync(folder, 0o777);
});
afterEach(() => {
  process.umask(previousUmask);
  rmSync(folder, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const sqliteFiles = (path: string) => [path, `${path}-wal`, `${path}-shm`];

/** A database another program left readable by everyone, with its write-ahead log still there. */
function worldReadableDatabase(path: string): void {
  const database = new BetterSqlite3(path);
  database.pragma('journal_mode = WAL');
  database.pragma('wal_autocheckpoint = 0');
  database.exec('CREATE TABLE leftover (value TEXT)');
  database.prepare('INSERT INTO leftover VALUES (?)').run('written before the tightening');
  for (const file of sqliteFiles(path)) chmodSync(file, 0o666);
  // Not closed: closing the last connection would fold the log into the file and remove it.
  databasesLeftOpen.push(database);
}
const databasesLeftOpen: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const database of databasesLeftOpen.splice(0)) database.close();
});

describe('file modes of a data folder', () => {
  it('creates memplane.db, its -wal and -shm and the cursor secret with mode 0600 under umask 0 in a 0777 folder', async () => {
    const host = await openMemplaneHost({ dataDirectory: folder });
    try {
      const database = join(folder, dataFolderSqliteFileName);
      // The migration wrote, so the write-ahead log and its index exist now.
      for (const file of sqliteFiles(database)) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file), file).toBe(0o600);
      }
      expect(modeOf(join(folder, 'cursor-secret'))).toBe(0o600);
    } finally {
      await host.close();
    }
  });

  it('creates a missing data folder with mode 0700 under umask 0', async () => {
    const fresh = join(folder, 'fresh', 'data');
    const host = await openMemplaneHost({ dataDirectory: fresh });
    try {
      expect(modeOf(fresh)).toBe(0o700);
      expect(host.dataDirectory).toBe(fresh);
    } finally {
      await host.close();
    }
  });

  it('tightens an existing world-readable memplane.db, its companions and the cursor secret when it opens them', async () => {
    const database = join(folder, dataFolderSqliteFileName);
    worldReadableDatabase(database);
    writeFileSync(join(folder, 'cursor-secret'), `${'ab'.repeat(32)}\n`, { mode: 0o644 });
    const host = await openMemplaneHost({ dataDirectory: folder });
    try {
      for (const file of sqliteFiles(database)) expect(modeOf(file), file).toBe(0o600);
      expect(modeOf(join(folder, 'cursor-secret'))).toBe(0o600);
    } finally {
      await host.close();
    }
  });
});

describe('file modes of the SQLite store', () => {
  it('keeps a store file anywhere at 0600 after a write that creates the write-ahead log', async () => {
    const filename = join(folder, 'elsewhere.db');
    const store = createSqliteMemoryServiceStore({ filename });
    try {
      await store.migrate();
      await store.appendOperations([createStoreFixtures().operation()]);
      for (const file of sqliteFiles(filename)) expect(modeOf(file), file).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('tightens an existing file shared with its group, and still opens it', async () => {
    const filename = join(folder, 'shared.db');
    const seed = createSqliteMemoryServiceStore({ filename });
    await seed.migrate();
    await seed.close();
    chmodSync(filename, 0o664);
    const store = createSqliteMemoryServiceStore({ filename });
    try {
      await store.migrate();
      expect(modeOf(filename)).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('leaves in-memory stores alone', async () => {
    const store = createSqliteMemoryServiceStore({ filename: ':memory:' });
    await store.migrate();
    expect(existsSync(join(process.cwd(), ':memory:'))).toBe(false);
    await store.close();
  });
});
