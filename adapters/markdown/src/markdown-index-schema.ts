import type Database from 'better-sqlite3';
import { recordTextIndexOf } from './markdown-record-text-index';

/** Bumped whenever the schema or what the index derives from markdown changes; a mismatch rebuilds. */
export const indexSchemaVersion = '11';

/** Creates the tables of an empty index. */
export function createIndexSchema(database: Database.Database): void {
  database.exec(`
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS companies (company_id TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS files (
      path TEXT PRIMARY KEY,
      size INTEGER NOT NULL,
      mtime_ns TEXT NOT NULL,
      inode TEXT NOT NULL,
      ctime_ns TEXT NOT NULL,
      record_count INTEGER NOT NULL,
      scope_key TEXT NOT NULL,
      file_kind TEXT NOT NULL,
      sequence INTEGER NOT NULL UNIQUE
    );
    CREATE INDEX IF NOT EXISTS files_scope ON files(scope_key, file_kind, path);
    CREATE TABLE IF NOT EXISTS records (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      file TEXT NOT NULL,
      position INTEGER NOT NULL,
      company_id TEXT NOT NULL,
      agent_id TEXT, project_id TEXT, issue_id TEXT, run_id TEXT, subject_id TEXT, session_key TEXT, namespace TEXT,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      version INTEGER NOT NULL,
      dedupe_key TEXT NOT NULL,
      expires_at TEXT,
      searchable INTEGER NOT NULL,
      section TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS records_company ON records(company_id, id);
    CREATE INDEX IF NOT EXISTS records_duplicates ON records(dedupe_key);
    CREATE INDEX IF NOT EXISTS records_file ON records(file, position);
    CREATE TABLE IF NOT EXISTS resources (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      file TEXT NOT NULL,
      company_id TEXT NOT NULL,
      dedupe_key TEXT NOT NULL,
      section TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS resources_file ON resources(file);
    CREATE INDEX IF NOT EXISTS resources_duplicates ON resources(dedupe_key);
  `);
  recordTextIndexOf(database).create();
}

/** Drops every table, for a rebuild in place. */
export function dropIndexSchema(database: Database.Database): void {
  recordTextIndexOf(database).drop();
  database.exec(`
    DROP TABLE IF EXISTS windows_fts;
    DROP TABLE IF EXISTS vectors;
    DROP TABLE IF EXISTS vector_rows;
    DROP TABLE IF EXISTS windows;
    DROP TABLE IF EXISTS records;
    DROP TABLE IF EXISTS resources;
    DROP TABLE IF EXISTS files;
    DROP TABLE IF EXISTS companies;
    DROP TABLE IF EXISTS meta;
  `);
}
