import { createHash } from 'node:crypto';
import { MemoryApiCallError, MemoryConfigurationError, MemoryConflictError, MemoryError, MemoryValidationError } from '@memplane/core';
import pg from 'pg';

/** Something SQL can be sent to: the pool, or one client inside a transaction. */
export interface Queryable {
  query<Row extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}

/** The store's access to Postgres: queries, transactions, and a closed state every call checks. */
export interface PostgresConnection {
  /**
   * Runs one statement on the pool. With `name`, the statement is prepared once per connection
   * (parse and plan skipped afterwards); the text is part of the name, so stores of different
   * schemas never share one.
   */
  query<Row extends object = Record<string, unknown>>(text: string, values?: unknown[], name?: string): Promise<Row[]>;
  /** Runs `work` in one transaction on one client; rolls back when it throws. */
  transaction<Result>(work: (client: Queryable) => Promise<Result>): Promise<Result>;
  /** Ends the pool when the store created it; every later call fails with `MemoryConfigurationError`. */
  close(): Promise<void>;
  /** The pool, for the parts of the package that share it. */
  readonly pool: pg.Pool;
}

/** The SQLSTATE of a Postgres error, when it has one. */
export function sqlStateOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The constraint a Postgres error names, when it names one. */
export function constraintOf(error: unknown): string | undefined {
  const constraint = typeof error === 'object' && error !== null ? (error as { constraint?: unknown }).constraint : undefined;
  return typeof constraint === 'string' ? constraint : undefined;
}

const transientNetworkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/**
 * Turns a driver error into the memplane hierarchy, so callers switch on `code` as with any
 * provider: a duplicate id is a validation error naming `id`, serialization failures and deadlocks are conflicts (retryable), a lost or refused
 * connection is a retryable call error, authentication, a missing database or an unmigrated
 * schema are configuration errors, anything else a non-retryable call error.
 */
export function toStoreError(error: unknown, operation: string): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  const state = sqlStateOf(error) ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const url = `postgres:${operation}`;
  if (state === '23505') {
    return new MemoryValidationError({
      target: operation,
      issues: [{ path: 'id', message: `duplicates an entry already stored (${constraintOf(error) ?? 'unique constraint'})` }],
      cause: error,
    });
  }
  if (state === '40001' || state === '40P01') {
    return new MemoryConflictError({ message: `The Postgres store could not ${operation} because of a concurrent change: ${message}`, cause: error });
  }
  if (state.startsWith('28') || state === '3D000' || state === '42P01' || state === '3F000') {
    return new MemoryConfigurationError({ message: `The Postgres store cannot ${operation}: ${message}`, cause: error });
  }
  const transient = state.startsWith('08') || state.startsWith('57P') || state === '53300' || transientNetworkCodes.has(state);
  return new MemoryApiCallError({ message: `The Postgres store failed to ${operation}: ${message}`, url, isRetryable: transient, cause: error });
}

/** Opens (or adopts) a pool. A pool the caller passed in is never ended by the store. */
export function createPostgresConnection(options: { pool?: pg.Pool; connectionString?: string; maxConnections: number }): PostgresConnection {
  const owned = options.pool === undefined;
  const pool =
    options.pool ??
    new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections, application_name: 'memplane-service' });
  // An idle client that loses its server emits on the pool; without a listener Node would crash the process.
  if (owned) pool.on('error', () => undefined);
  let closed = false;
  // The statement names, so a hot statement is not hashed again on every call.
  const preparedNames = new Map<string, string>();
  const open = () => {
    if (closed) throw new MemoryConfigurationError({ message: 'The Postgres memory service store is closed.' });
  };

  return {
    pool,
    async query<Row extends object>(text: string, values?: unknown[], name?: string) {
      open();
      if (name === undefined) return (await pool.query<Row>(text, values)).rows;
      let prepared = preparedNames.get(text);
      if (prepared === undefined) {
        prepared = `${name}-${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
        preparedNames.set(text, prepared);
      }
      return (await pool.query<Row>({ name: prepared, text, ...(values === undefined ? {} : { values }) })).rows;
    },
    async transaction<Result>(work: (client: Queryable) => Promise<Result>) {
      open();
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(client as unknown as Queryable);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // A client that cannot roll back is not given back to the pool for reuse.
          broken = rollbackError;
        }
        throw error;
      } finally {
        client.release(broken === undefined ? undefined : (broken as Error));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (owned) await pool.end();
    },
  };
}
