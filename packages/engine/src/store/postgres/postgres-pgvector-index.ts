import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import type { SqlConnection, SqlDatabase } from '../sql/sql-connection';
import { placeholders } from '../sql/sql-connection';
import type { SqlDialect } from '../sql/sql-dialect';
import { exactScope, readScope, scopeColumnList, scopeRange } from '../sql/sql-scope-clause';
import { chunks } from '../sql/sql-store-context';
import type { VectorIndex } from '../vector-index';

/** Settings of the pgvector index. */
export interface PgvectorIndexSettings {
  /** The length of every vector (the `vector(n)` column type); vectors of another length are refused. */
  readonly dimensions: number;
  /** HNSW build parameters (pgvector defaults 16 and 64). */
  readonly m?: number | undefined;
  readonly efConstruction?: number | undefined;
  /** Candidates HNSW keeps per search; raised to twice the limit when that is larger. Default 100. */
  readonly efSearch?: number | undefined;
}

/** The DDL of the vector table and its HNSW index (cosine distance). */
export function pgvectorStatements(dialect: SqlDialect, fields: readonly string[], settings: PgvectorIndexSettings): string[] {
  const scope = scopeColumnList(fields);
  const table = dialect.table('item_vectors');
  const dimensions = Math.trunc(settings.dimensions);
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (${scope.map((column) => `${column} TEXT NOT NULL`).join(', ')}, item_id TEXT NOT NULL, model TEXT NOT NULL, embedding vector(${dimensions}) NOT NULL, PRIMARY KEY (${[...scope, 'item_id', 'model'].join(', ')}))`,
    `CREATE INDEX IF NOT EXISTS item_vectors_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops) WITH (m = ${Math.trunc(settings.m ?? 16)}, ef_construction = ${Math.trunc(settings.efConstruction ?? 64)})`,
    `CREATE INDEX IF NOT EXISTS item_vectors_scope ON ${table} (${[...scope, 'model'].join(', ')})`,
  ];
}

const literal = (vector: Float32Array) => `[${Array.from(vector, (value) => String(value)).join(',')}]`;

/**
 * Vectors in Postgres with pgvector and an HNSW index (§11.3): approximate nearest neighbours by
 * cosine distance, filtered to the scope range. Where pgvector supports it (0.8 and later),
 * iterative index scans keep filling the result when the range is a small part of the table.
 */
export function createPgvectorIndex(database: SqlDatabase, dialect: SqlDialect, fields: readonly string[], settings: PgvectorIndexSettings, options: { iterativeScan: boolean }): VectorIndex {
  const table = dialect.table('item_vectors');
  const scopeList = scopeColumnList(fields).join(', ');
  const check = (vector: Float32Array, path: string) => {
    if (vector.length !== settings.dimensions || !vector.every(Number.isFinite)) {
      throw new MemoryValidationError({ target: 'pgvector index', issues: [{ path, message: `must be ${settings.dimensions} finite numbers (the index's dimensions)` }] });
    }
  };
  return {
    name: 'pgvector-hnsw',
    async upsert(entries) {
      for (const entry of entries) check(entry.vector, `${entry.itemId}.vector`);
      await database.transaction(async (connection) => {
        for (const batch of chunks(entries, 200)) {
          const row = `(${placeholders(fields.length + 2)}, ?::vector)`;
          await connection.run(
            `INSERT INTO ${table} (${scopeList}, item_id, model, embedding) VALUES ${batch.map(() => row).join(', ')}
             ON CONFLICT (${scopeList}, item_id, model) DO UPDATE SET embedding = excluded.embedding`,
            batch.flatMap((entry) => [...exactScope(fields, entry.scope).params, entry.itemId, entry.model, literal(entry.vector)]),
          );
        }
      });
    },
    async remove(scope, itemIds) {
      const where = exactScope(fields, scope);
      await database.transaction(async (connection) => {
        for (const ids of chunks([...new Set(itemIds)], 500)) {
          await connection.run(`DELETE FROM ${table} WHERE ${where.sql} AND item_id IN (${placeholders(ids.length)})`, [...where.params, ...ids]);
        }
      });
    },
    async search(request) {
      check(request.vector, 'vector');
      if (request.limit <= 0) return [];
      const where = scopeRange(fields, request.range);
      const query = literal(request.vector);
      const rows = await database.transaction(async (connection) => {
        // SET LOCAL lasts until the end of this transaction only; the values are integers we computed.
        await connection.run(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(settings.efSearch ?? 100, request.limit * 2))}`);
        if (options.iterativeScan) await connection.run(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        return connection.all<{ item_id: string; distance: number | string } & Record<string, unknown>>(
          `SELECT ${scopeList}, item_id, embedding <=> ?::vector AS distance FROM ${table} WHERE ${where.sql} AND model = ? ORDER BY embedding <=> ?::vector LIMIT ?`,
          [query, ...where.params, request.model, query, request.limit],
        );
      });
      // relaxed_order may return neighbours slightly out of order: sort them again.
      return rows
        .map((row) => ({ itemId: row.item_id, scope: readScope(fields, row), similarity: 1 - Number(row.distance) }))
        .filter((hit) => Number.isFinite(hit.similarity))
        .sort((left, right) => right.similarity - left.similarity || (left.itemId < right.itemId ? -1 : 1));
    },
    async get(scope, itemIds, model) {
      const where = exactScope(fields, scope);
      const found = new Map<string, Float32Array>();
      await database.transaction(async (connection) => {
        for (const ids of chunks([...new Set(itemIds)], 500)) {
          const rows = await connection.all<{ item_id: string; embedding: string }>(
            `SELECT item_id, embedding::text AS embedding FROM ${table} WHERE ${where.sql} AND model = ? AND item_id IN (${placeholders(ids.length)})`,
            [...where.params, model, ...ids],
          );
          for (const row of rows) found.set(row.item_id, Float32Array.from(JSON.parse(row.embedding) as number[]));
        }
      });
      return found;
    },
  };
}

/**
 * Creates (in `create` mode) the vector extension, table and index, and checks that pgvector is
 * there. Returns whether iterative index scans are supported (pgvector 0.8 and later).
 */
export async function provisionPgvector(connection: SqlConnection, dialect: SqlDialect, fields: readonly string[], settings: PgvectorIndexSettings, ddlMode: 'create' | 'validate'): Promise<{ iterativeScan: boolean }> {
  if (ddlMode === 'create') {
    const [available] = await connection.all<{ name: string }>(`SELECT name FROM pg_available_extensions WHERE name = 'vector'`);
    if (available === undefined) throw new MemoryConfigurationError({ message: 'The pgvector index needs the "vector" extension, which this Postgres server does not have. Install pgvector, or open the store with vectorIndex "none".' });
    await connection.run('CREATE EXTENSION IF NOT EXISTS vector');
    for (const statement of pgvectorStatements(dialect, fields, settings)) await connection.run(statement);
  }
  const [installed] = await connection.all<{ version: string }>(`SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`);
  if (installed === undefined) throw new MemoryConfigurationError({ message: 'The pgvector index needs the "vector" extension in this database; open once with ddlMode "create".' });
  const [major = 0, minor = 0] = installed.version.split('.').map(Number);
  return { iterativeScan: major > 0 || minor >= 8 };
}
