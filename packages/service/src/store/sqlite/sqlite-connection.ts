import type { Database, Statement } from 'better-sqlite3';
import { MemoryConfigurationError } from '@memplane/core';
import type { MemoryStorePage, MemoryStorePageRequest } from '../memory-service-records';
import { bindValue, copyFilterQuery, type StoreFilterQuery } from '../support/store-filters';
import { preparePrivateSqliteFile } from '../../security/private-file-mode';
import { loadSqliteDriver } from './sqlite-driver';

type Row = Record<string, unknown>;

/** One better-sqlite3 connection with a statement cache, transactions and keyset pages. */
export interface SqliteConnection {
  /** The open database, or `MemoryConfigurationError` once closed. */
  open(): Database;
  /** A cached prepared statement. */
  prepare(sql: string): Statement;
  /** Runs `work` in one transaction. */
  transaction<Result>(work: () => Result): Result;
  /** One page of a filtered log table, newest first by position. */
  page<Entry>(query: StoreFilterQuery, request: MemoryStorePageRequest, toEntry: (row: Row) => Entry): MemoryStorePage<Entry>;
  /** Closes the connection. */
  close(): void;
}

/**
 * Opens the file (or `:memory:`) with WAL journaling for files and a busy timeout for other
 * writers. The file and its `-wal` and `-shm` companions are the owner's alone (mode 0600).
 */
export function openSqliteConnection(filename: string, busyTimeoutMs: number): SqliteConnection {
  const BetterSqlite3 = loadSqliteDriver();
  preparePrivateSqliteFile(filename);
  let database: Database | undefined;
  try {
    database = new BetterSqlite3(filename);
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `Cannot open the SQLite store at ${filename}.`, cause });
  }
  database.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (filename !== ':memory:') database.pragma('journal_mode = WAL');
  // WAL with NORMAL is durable across application crashes; only an OS crash can lose the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');

  const statements = new Map<string, Statement>();
  // One transaction function for the connection: better-sqlite3 builds a wrapper per `transaction()` call.
  let inTransaction: ((work: () => unknown) => unknown) | undefined;
  const open = (): Database => {
    if (database === undefined) throw new MemoryConfigurationError({ message: 'The SQLite memory service store is closed.' });
    return database;
  };
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = open().prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    open,
    prepare,
    transaction<Result>(work: () => Result): Result {
      inTransaction ??= open().transaction((inner: () => unknown) => inner());
      open();
      return inTransaction(work) as Result;
    },
    page(query, request, toEntry) {
      const limit = Math.max(1, Math.min(500, Math.floor(request.limit)));
      const paged = copyFilterQuery(query);
      if (request.after !== undefined) paged.where.push(`position < ${bindValue(paged, request.after)}`);
      const sql = `SELECT * FROM ${paged.table} WHERE ${paged.where.join(' AND ')} ORDER BY position DESC LIMIT ${bindValue(paged, limit + 1)}`;
      const rows = prepare(sql).all(paged.values) as Row[];
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return {
        items: items.map(toEntry),
        ...(rows.length > limit && last !== undefined ? { nextAfter: Number(last.position) } : {}),
      };
    },
    close() {
      statements.clear();
      inTransaction = undefined;
      database?.close();
      database = undefined;
    },
  };
}
