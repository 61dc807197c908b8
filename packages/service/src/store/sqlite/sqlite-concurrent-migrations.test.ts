import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { applySqliteMigrations, sqliteMigrations, type SqliteMigration } from './sqlite-migrations';

describe('SQLite migrations opened by two processes at once', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  function openFile(folder: string, busyTimeoutMs: number): Database.Database {
    const database = new Database(join(folder, 'service.sqlite'));
    database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    database.pragma('journal_mode = WAL');
    return database;
  }

  it('skips a migration another connection applied after this one read the version, instead of running it twice', () => {
    const folder = mkdtempSync(join(tmpdir(), 'memplane-sqlite-migrations-'));
    folders.push(folder);
    const first = openFile(folder, 0);
    const second = openFile(folder, 0);
    let interleaved = false;
    let secondRefused: unknown;
    // The other process runs at the worst moment: after this one read the version, when it
    // reaches for the first migration's statements. A getter stands in for that moment.
    const interleaving: SqliteMigration[] = sqliteMigrations.map((migration, index) =>
      index !== 0
        ? migration
        : {
            version: migration.version,
            name: migration.name,
            get sql() {
              if (!interleaved) {
                interleaved = true;
                try {
                  applySqliteMigrations(second);
                } catch (error) {
                  // Refused while the first holds the write lock: the fixed code's answer.
                  secondRefused = error;
                }
              }
              return migration.sql;
            },
          },
    );
    try {
      expect(() => applySqliteMigrations(first, interleaving)).not.toThrow();
      expect(interleaved).toBe(true);
      expect(secondRefused === undefined || String(secondRefused).includes('SQLITE_BUSY') || String(secondRefused).includes('locked')).toBe(true);
      const versions = first.prepare('SELECT version FROM memplane_schema_migrations ORDER BY version').all() as Array<{ version: number }>;
      expect(versions.map((row) => row.version)).toEqual(sqliteMigrations.map((migration) => migration.version).sort((a, b) => a - b));
      // The second process, opening again, finds nothing left to do.
      expect(applySqliteMigrations(second)).toBe(0);
    } finally {
      first.close();
      second.close();
    }
  });
});
