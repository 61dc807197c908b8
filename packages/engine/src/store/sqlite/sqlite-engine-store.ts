import { parseInput } from '@memplane/core';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { z } from 'zod';
import type { EngineStore } from '../engine-store';
import type { SqlConnection } from '../sql/sql-connection';
import { sqliteDialect } from '../sql/sql-dialect';
import { createSqlEngineStore } from '../sql/sql-engine-store';
import { engineTableStatements } from '../sql/sql-schema';
import { createSqliteDatabase } from './sqlite-database';
import { createSqliteItemTextIndex } from './sqlite-item-text-index';
import { checkSqliteVectorTable, createSqliteVectorIndex, sqliteVectorStatements } from './sqlite-vector-index';

/** Settings of {@link createSqliteEngineStore}. Give `path` or `database`. */
export interface SqliteEngineStoreSettings {
  /** The database file (created when missing), or `:memory:`. The store opens and closes it. */
  readonly path?: string | undefined;
  /** A better-sqlite3 database you own; the store loads sqlite-vec into it and never closes it. */
  readonly database?: Database.Database | undefined;
  /** `bruteforce` (default): exact cosine search over every vector of the scope range; `none`: no vector index. */
  readonly vectorIndex?: 'bruteforce' | 'none' | undefined;
  /** How long a write waits for another process's write lock, in milliseconds. Default 5000. */
  readonly busyTimeoutMs?: number | undefined;
}

const settingsSchema = z
  .strictObject({
    path: z.string().min(1).max(4096).optional(),
    database: z.custom<Database.Database>((value) => value instanceof Database, 'must be a better-sqlite3 Database').optional(),
    vectorIndex: z.enum(['bruteforce', 'none']).optional(),
    busyTimeoutMs: z.number().int().min(0).max(600_000).optional(),
  })
  .refine((settings) => (settings.path === undefined) !== (settings.database === undefined), { message: 'give exactly one of path and database', path: ['path'] });

const listColumns = async (connection: SqlConnection, table: string) =>
  (await connection.all<{ name: string }>(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, [table])).map((row) => row.name);

/**
 * The SQLite engine store (§11.2): lightweight local persistence in one file, WAL journal,
 * transactions that take the write lock up front, and brute-force vectors through sqlite-vec.
 */
export function createSqliteEngineStore(settings: SqliteEngineStoreSettings): EngineStore {
  const valid = parseInput(settingsSchema, settings, 'SQLite engine store settings', 'settings');
  const database = valid.database ?? new Database(valid.path as string);
  sqliteVec.load(database);
  database.pragma(`busy_timeout = ${valid.busyTimeoutMs ?? 5000}`);
  // Forget means the bytes are gone: deleted rows are overwritten with zeros, not left in free pages of the file.
  database.pragma('secure_delete = ON');
  if (valid.database === undefined && valid.path !== ':memory:') {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    // 32 MB of page cache keeps the term index warm while a large corpus is written.
    database.pragma('cache_size = -32000');
    // Checkpoints (each an fsync) every 8000 pages rather than 1000: bulk memorize is not paced by the disk.
    database.pragma('wal_autocheckpoint = 8000');
  }
  const sql = createSqliteDatabase(database, { ownsDatabase: valid.database === undefined });
  const vectors = (valid.vectorIndex ?? 'bruteforce') === 'bruteforce';
  const itemTextIndex = createSqliteItemTextIndex(database);
  return createSqlEngineStore({
    name: 'sqlite',
    database: sql,
    provisioning: {
      dialect: sqliteDialect,
      statements: (fields) => engineTableStatements(sqliteDialect, fields),
      listColumns,
    },
    context: (meta) => ({
      dialect: sqliteDialect,
      fields: meta.scopeFields,
      boundaryFields: meta.boundaryFields,
      lexical: itemTextIndex,
      isUniqueViolation: (error) => typeof (error as { code?: unknown })?.code === 'string' && /^SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)$/.test((error as { code: string }).code),
    }),
    ...(vectors
      ? {
          vectorIndexName: 'sqlite-bruteforce',
          async openVectorIndex(connection: SqlConnection, scopeFields: readonly string[], ddlMode: 'create' | 'validate') {
            if (ddlMode === 'create') for (const statement of sqliteVectorStatements(scopeFields)) await connection.run(statement);
            await checkSqliteVectorTable(connection, scopeFields);
            return createSqliteVectorIndex(sql, scopeFields);
          },
        }
      : {}),
  });
}
