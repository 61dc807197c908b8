/** The part of a prepared statement the SQLite lexical index uses (better-sqlite3's `Statement` fits). */
export interface SqliteStatementLike {
  run(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  get(...parameters: unknown[]): unknown;
  /** Rows as arrays of column values instead of objects (better-sqlite3's `raw`). */
  raw(toggle?: boolean): SqliteStatementLike;
}

/**
 * The part of a SQLite connection the lexical index uses. A better-sqlite3 `Database` fits, so
 * `@memplane/rules` needs no driver of its own and the index runs inside its caller's transactions.
 */
export interface SqliteDatabaseLike {
  prepare(sql: string): SqliteStatementLike;
  exec(sql: string): unknown;
}
