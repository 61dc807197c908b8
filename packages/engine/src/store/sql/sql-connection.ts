/**
 * The small surface the SQL stores need from a database driver. The statements are written once,
 * with `?` placeholders, and run on SQLite (better-sqlite3) and on Postgres (node-postgres or
 * PGlite), which number them (`$1`). Nothing else in the statements differs by driver; what
 * differs by dialect (column types, JSON operators) is in `SqlDialect`.
 */

/** Which SQL the database speaks. */
export type SqlDialectName = 'sqlite' | 'postgres';

/** One connection (or the connection of one transaction). */
export interface SqlConnection {
  readonly dialect: SqlDialectName;
  /** Runs a statement and returns its rows. */
  all<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement and returns how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** A database the store owns (or borrows). */
export interface SqlDatabase {
  readonly dialect: SqlDialectName;
  /**
   * Runs `work` in one transaction on one connection: everything it wrote is committed when it
   * resolves and rolled back when it throws. A call made while a transaction of this database is
   * active in the same async context joins it (no savepoint: the outer transaction decides).
   */
  transaction<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T>;
  /** Releases what the database holds; a borrowed pool is left open. */
  close(): Promise<void>;
}

const numbered = new Map<string, string>();

/**
 * Rewrites `?` placeholders as `$1`, `$2`, ... for Postgres. The statements of this package never
 * hold a `?` inside a literal or use the jsonb `?` operator, so every `?` is a parameter.
 */
export function numberPlaceholders(sql: string): string {
  const cached = numbered.get(sql);
  if (cached !== undefined) return cached;
  let index = 0;
  const rewritten = sql.replace(/\?/g, () => `$${(index += 1)}`);
  if (numbered.size < 2000) numbered.set(sql, rewritten);
  return rewritten;
}

/** `?, ?, ?` for `count` values. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
