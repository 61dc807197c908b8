import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { SqlConnection, SqlDatabase } from '../sql/sql-connection';

/**
 * better-sqlite3 behind the async `SqlDatabase`. One connection serves every transaction, so
 * transactions are queued one after another (an async step of one never interleaves with another's
 * statements), and `BEGIN IMMEDIATE` takes the write lock up front so two processes on one file
 * wait for each other (`busy_timeout`) instead of failing half way. A transaction opened inside
 * another in the same async context joins it.
 */
export function createSqliteDatabase(database: Database.Database, options: { ownsDatabase: boolean }): SqlDatabase {
  const statements = new Map<string, Database.Statement>();
  const active = new AsyncLocalStorage<SqlConnection>();
  let queue: Promise<unknown> = Promise.resolve();

  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = database.prepare(sql);
      if (statements.size < 1000) statements.set(sql, statement);
    }
    return statement;
  };
  const connection: SqlConnection = {
    dialect: 'sqlite',
    all: async <Row>(sql: string, params: readonly unknown[] = []) => {
      const statement = prepare(sql);
      if (!statement.reader) {
        statement.run(...params);
        return [] as Row[];
      }
      return statement.all(...params) as Row[];
    },
    run: async (sql, params = []) => {
      const statement = prepare(sql);
      if (statement.reader) return statement.all(...params).length;
      return statement.run(...params).changes;
    },
  };

  async function runTransaction<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    database.exec('BEGIN IMMEDIATE');
    try {
      const result = await active.run(connection, () => work(connection));
      database.exec('COMMIT');
      return result;
    } catch (error) {
      if (database.inTransaction) database.exec('ROLLBACK');
      throw error;
    }
  }

  return {
    dialect: 'sqlite',
    transaction<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
      if (active.getStore() !== undefined) return work(connection);
      const result = queue.then(() => runTransaction(work));
      // The next transaction waits for this one to settle, whatever its outcome.
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      await queue;
      statements.clear();
      if (options.ownsDatabase && database.open) database.close();
    },
  };
}
