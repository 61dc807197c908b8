import { AsyncLocalStorage } from 'node:async_hooks';
import { MemoryApiCallError, MemoryError, MemoryValidationError } from '@memplane/core';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { numberPlaceholders, type SqlConnection, type SqlDatabase } from '../sql/sql-connection';

/**
 * Postgres behind the async `SqlDatabase`, on node-postgres (a server: PostgreSQL 15 and later)
 * or on PGlite (Postgres in WebAssembly, in the process). The statements are the same on both.
 * Driver errors become `MemoryError`s: a dropped connection or a serialisation failure is
 * retryable, a value Postgres cannot store (a NUL character) is a validation error, and a
 * unique violation keeps its SQLSTATE (`23505`) for the store to turn into a conflict.
 */

const retryableStates = new Set(['40001', '40P01', '57P01', '57P03', '08000', '08003', '08006', '53300']);

/** Whether a driver error is a unique violation. */
export function isPostgresUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '23505';
}

function translate(error: unknown, statement: string): unknown {
  if (MemoryError.isInstance(error) || isPostgresUniqueViolation(error)) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === '22021' || code === '22P05') {
    return new MemoryValidationError({ target: 'engine store write', issues: [{ path: 'text', message: 'contains a character Postgres cannot store (NUL)' }], cause: error });
  }
  const retryable = typeof code === 'string' ? retryableStates.has(code) : ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(String(code));
  return new MemoryApiCallError({
    message: `The Postgres engine store failed (${typeof code === 'string' ? code : 'no SQLSTATE'}) on: ${statement.slice(0, 80)}`,
    cause: error,
    isRetryable: retryable || (error instanceof Error && /Connection terminated|connection error/i.test(error.message)),
  });
}

async function guarded<T>(statement: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translate(error, statement);
  }
}

type Query = (text: string, values: unknown[]) => Promise<{ rows: unknown[]; count: number }>;

function connectionOver(query: Query): SqlConnection {
  return {
    dialect: 'postgres',
    all: async <Row>(sql: string, params: readonly unknown[] = []) => (await guarded(sql, () => query(numberPlaceholders(sql), [...params]))).rows as Row[],
    run: async (sql, params = []) => (await guarded(sql, () => query(numberPlaceholders(sql), [...params]))).count,
  };
}

/** A node-postgres pool as a `SqlDatabase`: each transaction checks out one client. */
export function createPgPoolDatabase(pool: pg.Pool, options: { ownsPool: boolean }): SqlDatabase {
  const active = new AsyncLocalStorage<SqlConnection>();
  return {
    dialect: 'postgres',
    async transaction(work) {
      const joined = active.getStore();
      if (joined !== undefined) return work(joined);
      const client = await guarded('connect', () => pool.connect());
      const connection = connectionOver(async (text, values) => {
        const result = await client.query(text, values);
        return { rows: result.rows, count: result.rowCount ?? 0 };
      });
      let broken: unknown;
      try {
        await connection.run('BEGIN');
        const result = await active.run(connection, () => work(connection));
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // The connection is gone; the server rolls the transaction back itself.
          broken = rollbackError;
        }
        throw error;
      } finally {
        client.release(broken === undefined ? undefined : (broken as Error));
      }
    },
    async close() {
      if (options.ownsPool) await pool.end();
    },
  };
}

/** A PGlite database as a `SqlDatabase`; PGlite runs one transaction at a time. */
export function createPgliteDatabase(database: PGlite, options: { ownsDatabase: boolean }): SqlDatabase {
  const active = new AsyncLocalStorage<SqlConnection>();
  return {
    dialect: 'postgres',
    async transaction(work) {
      const joined = active.getStore();
      if (joined !== undefined) return work(joined);
      // Statement errors are translated where they happen; an error of `work` itself passes through as it is.
      return database.transaction(async (tx: Transaction) => {
        const connection = connectionOver(async (text, values) => {
          const result = await tx.query(text, values);
          return { rows: result.rows, count: result.affectedRows ?? 0 };
        });
        return active.run(connection, () => work(connection));
      });
    },
    async close() {
      if (options.ownsDatabase && !database.closed) await database.close();
    },
  };
}
