import type Database from 'better-sqlite3';

/** Bumped whenever the schema or what the index derives from markdown changes; a mismatch rebuilds. */
export const indexSchemaVersion = '9';

/**
 * The tokenizer of the full-text index. Porter stemming over unicode61 beat plain unicode61 by
 * 4.5 points of R@10 on LoCoMo; stopwords are removed from queries, not from the index.
 */
export const ftsTokenizer = "porter unicode61 remove_diacritics 2";

/**
 * The tokenizer of the neighbour windows. Without stemming it indexes about twice as fast, and the
 * windows only add context to the stemmed per-record match (R@10 75.5 vs 74.8 with porter, LoCoMo dev).
 */
export const windowTokenizer = 'unicode61 remove_diacritics 2';

/**
 * Pending full-text data kept in memory before it is written as a segment. FTS5's default of 1 MB
 * makes a rebuild write and merge hundreds of small segments; 16 MB took a 100k-record rebuild's
 * full-text work from 2.5 to 1.9 s. Batches of writes stay far below it.
 */
const ftsHashBytes = 16 * 1024 * 1024;

/**
 * Segments of one size FTS5 lets pile up before merging them. Merging was two thirds of the
 * full-text write cost at the default of 4; at 16 (the most FTS5 allows) writes of 100k records in
 * batches of 1000 spent 30% less on the full-text index, and queries read a few more segments.
 */
const ftsAutomerge = 16;

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
      file_kind TEXT NOT NULL
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
    CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(
      scope, body, metadata,
      tokenize = '${ftsTokenizer}', content = '', contentless_delete = 1
    );
    CREATE TABLE IF NOT EXISTS windows (
      rowid INTEGER PRIMARY KEY,
      file TEXT NOT NULL,
      start INTEGER NOT NULL,
      members TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS windows_file ON windows(file, start);
    CREATE VIRTUAL TABLE IF NOT EXISTS windows_fts USING fts5(
      scope, body,
      tokenize = '${windowTokenizer}', content = '', contentless_delete = 1
    );
    INSERT INTO records_fts (records_fts, rank) VALUES ('hashsize', ${ftsHashBytes});
    INSERT INTO windows_fts (windows_fts, rank) VALUES ('hashsize', ${ftsHashBytes});
    INSERT INTO records_fts (records_fts, rank) VALUES ('automerge', ${ftsAutomerge});
    INSERT INTO windows_fts (windows_fts, rank) VALUES ('automerge', ${ftsAutomerge});
  `);
}

/** Drops every table, for a rebuild in place. */
export function dropIndexSchema(database: Database.Database): void {
  database.exec(`
    DROP TABLE IF EXISTS vectors;
    DROP TABLE IF EXISTS vector_rows;
    DROP TABLE IF EXISTS records_fts;
    DROP TABLE IF EXISTS windows_fts;
    DROP TABLE IF EXISTS windows;
    DROP TABLE IF EXISTS records;
    DROP TABLE IF EXISTS resources;
    DROP TABLE IF EXISTS files;
    DROP TABLE IF EXISTS companies;
    DROP TABLE IF EXISTS meta;
  `);
}
