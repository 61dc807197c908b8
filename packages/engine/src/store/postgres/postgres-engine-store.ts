import { MemoryConfigurationError, parseInput } from '@memplane/core';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { z } from 'zod';
import type { EngineStore } from '../engine-store';
import type { SqlConnection, SqlDatabase } from '../sql/sql-connection';
import { postgresDialect, quoteIdentifier } from '../sql/sql-dialect';
import { postgresTermIndex } from './postgres-term-index';
import { createSqlEngineStore } from '../sql/sql-engine-store';
import { engineTableStatements } from '../sql/sql-schema';
import { createPgliteDatabase, createPgPoolDatabase, isPostgresUniqueViolation } from './postgres-database';
import { createPgvectorIndex, type PgvectorIndexSettings, provisionPgvector } from './postgres-pgvector-index';

/** Settings of {@link createPostgresEngineStore}. Give exactly one of `connectionString`, `pool` and `pglite`. */
export interface PostgresEngineStoreSettings {
  /** A libpq connection string; the store opens and owns its pool. */
  readonly connectionString?: string | undefined;
  /** A node-postgres pool you own; the store never ends it. */
  readonly pool?: pg.Pool | undefined;
  /** A PGlite database you own (load `@electric-sql/pglite-pgvector` into it for the pgvector index). */
  readonly pglite?: PGlite | undefined;
  /** The schema the engine's tables live in, created in `create` mode. Default `memplane_engine`. */
  readonly schema?: string | undefined;
  /** Connections of the pool the store opens. Default 10. */
  readonly maxConnections?: number | undefined;
  /** `none` (default) or pgvector with HNSW; the vector table is provisioned with the others. */
  readonly vectorIndex?: 'none' | ({ readonly kind: 'pgvector' } & PgvectorIndexSettings) | undefined;
}

const settingsSchema = z
  .strictObject({
    connectionString: z.string().min(1).max(4096).optional(),
    pool: z.custom<pg.Pool>((value) => value instanceof pg.Pool || (typeof value === 'object' && value !== null && typeof (value as pg.Pool).connect === 'function'), 'must be a pg Pool').optional(),
    pglite: z.custom<PGlite>((value) => typeof value === 'object' && value !== null && typeof (value as PGlite).transaction === 'function', 'must be a PGlite database').optional(),
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be 1 to 63 of a-z, 0-9 and "_", not starting with a digit').optional(),
    maxConnections: z.number().int().min(1).max(1000).optional(),
    vectorIndex: z
      .union([
        z.literal('none'),
        z.strictObject({
          kind: z.literal('pgvector'),
          dimensions: z.number().int().min(1).max(16_000),
          m: z.number().int().min(2).max(100).optional(),
          efConstruction: z.number().int().min(4).max(1000).optional(),
          efSearch: z.number().int().min(1).max(1000).optional(),
        }),
      ])
      .optional(),
  })
  .refine((settings) => [settings.connectionString, settings.pool, settings.pglite].filter((value) => value !== undefined).length === 1, {
    message: 'give exactly one of connectionString, pool and pglite',
    path: ['connectionString'],
  });

/**
 * The Postgres engine store (§11.3), the production path: every flow's writes in one transaction,
 * concurrent writers from many processes (unique keys decide races, optimistic versions guard
 * updates), scope-prefixed composite indexes, and an optional pgvector HNSW index. The same
 * statements run on a PostgreSQL server through node-postgres and in process on PGlite.
 */
export function createPostgresEngineStore(settings: PostgresEngineStoreSettings): EngineStore {
  const valid = parseInput(settingsSchema, settings, 'Postgres engine store settings', 'settings');
  const schema = valid.schema ?? 'memplane_engine';
  const dialect = postgresDialect(schema);
  const database: SqlDatabase =
    valid.pglite !== undefined
      ? createPgliteDatabase(valid.pglite, { ownsDatabase: false })
      : createPgPoolDatabase(valid.pool ?? new pg.Pool({ connectionString: valid.connectionString, max: valid.maxConnections ?? 10 }), { ownsPool: valid.pool === undefined });
  const vectorSettings = valid.vectorIndex === undefined || valid.vectorIndex === 'none' ? undefined : valid.vectorIndex;
  const listColumns = async (connection: SqlConnection, table: string) =>
    (await connection.all<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position`, [schema, table])).map(
      (row) => row.column_name,
    );
  return createSqlEngineStore({
    name: 'postgres',
    database,
    provisioning: {
      dialect,
      statements: (fields) => [`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`, ...engineTableStatements(dialect, fields)],
      listColumns,
    },
    // Two processes opening a new database at once would race on CREATE TABLE IF NOT EXISTS; the lock orders them.
    lockForDdl: async (connection) => {
      await connection.all(`SELECT pg_advisory_xact_lock(hashtext(?))`, [`memplane-engine:${schema}`]);
    },
    context: (meta) => ({ dialect, fields: meta.scopeFields, boundaryFields: meta.boundaryFields, lexical: postgresTermIndex, isUniqueViolation: isPostgresUniqueViolation }),
    ...(vectorSettings === undefined
      ? {}
      : {
          vectorIndexName: 'pgvector-hnsw',
          async openVectorIndex(connection: SqlConnection, fields: readonly string[], ddlMode: 'create' | 'validate') {
            const support = await provisionPgvector(connection, dialect, fields, vectorSettings, ddlMode);
            if ((await listColumns(connection, 'item_vectors')).length === 0) {
              throw new MemoryConfigurationError({ message: 'The pgvector table item_vectors is missing; open once with ddlMode "create".' });
            }
            return createPgvectorIndex(database, dialect, fields, vectorSettings, support);
          },
        }),
  });
}
