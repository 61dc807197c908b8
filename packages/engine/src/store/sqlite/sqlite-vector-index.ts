import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import type { SqlConnection, SqlDatabase } from '../sql/sql-connection';
import { placeholders } from '../sql/sql-connection';
import { scopeColumn } from '../sql/sql-dialect';
import { exactScope, readScope, scopeColumnList, scopeRange } from '../sql/sql-scope-clause';
import { chunks } from '../sql/sql-store-context';
import type { VectorIndex } from '../vector-index';

/** The DDL of the SQLite vector table: scope columns first, in the key and in the search index. */
export function sqliteVectorStatements(fields: readonly string[]): string[] {
  const scope = scopeColumnList(fields);
  return [
    `CREATE TABLE IF NOT EXISTS item_vectors (${scope.map((column) => `${column} TEXT NOT NULL`).join(', ')}, item_id TEXT NOT NULL, model TEXT NOT NULL, dimensions INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (${[...scope, 'item_id', 'model'].join(', ')}))`,
    `CREATE INDEX IF NOT EXISTS item_vectors_model ON item_vectors (${[...scope, 'model', 'dimensions'].join(', ')})`,
  ];
}

const blob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

function checkVector(vector: Float32Array, field: string): void {
  if (vector.length === 0 || vector.length > 16_000 || !vector.every(Number.isFinite)) {
    throw new MemoryValidationError({ target: 'vector index', issues: [{ path: field, message: 'must be 1 to 16000 finite numbers' }] });
  }
}

/**
 * Brute-force vectors in SQLite (§11.2: functional, not performance-grade): every vector of the
 * range and model is compared with sqlite-vec's `vec_distance_cosine`, in C, and the nearest are
 * kept. Exact, so results never depend on an approximate index.
 */
export function createSqliteVectorIndex(database: SqlDatabase, fields: readonly string[]): VectorIndex {
  const inTransaction = <T>(work: (connection: SqlConnection) => Promise<T>) => database.transaction(work);
  const scopeList = scopeColumnList(fields).join(', ');
  return {
    name: 'sqlite-bruteforce',
    async upsert(entries) {
      for (const entry of entries) checkVector(entry.vector, `${entry.itemId}.vector`);
      await inTransaction(async (connection) => {
        for (const batch of chunks(entries, 200)) {
          const row = `(${placeholders(fields.length + 4)})`;
          await connection.run(
            `INSERT INTO item_vectors (${scopeList}, item_id, model, dimensions, vector) VALUES ${batch.map(() => row).join(', ')}
             ON CONFLICT (${scopeList}, item_id, model) DO UPDATE SET dimensions = excluded.dimensions, vector = excluded.vector`,
            batch.flatMap((entry) => [...exactScope(fields, entry.scope).params, entry.itemId, entry.model, entry.vector.length, blob(entry.vector)]),
          );
        }
      });
    },
    async remove(scope, itemIds) {
      const where = exactScope(fields, scope);
      await inTransaction(async (connection) => {
        for (const ids of chunks([...new Set(itemIds)], 500)) {
          await connection.run(`DELETE FROM item_vectors WHERE ${where.sql} AND item_id IN (${placeholders(ids.length)})`, [...where.params, ...ids]);
        }
      });
    },
    async search(request) {
      checkVector(request.vector, 'vector');
      if (request.limit <= 0) return [];
      const where = scopeRange(fields, request.range);
      const rows = await inTransaction((connection) =>
        connection.all<{ item_id: string; distance: number } & Record<string, unknown>>(
          `SELECT ${scopeList}, item_id, vec_distance_cosine(vector, ?) AS distance FROM item_vectors
           WHERE ${where.sql} AND model = ? AND dimensions = ? ORDER BY distance, item_id LIMIT ?`,
          [blob(request.vector), ...where.params, request.model, request.vector.length, request.limit],
        ),
      );
      return rows.filter((row) => Number.isFinite(row.distance)).map((row) => ({ itemId: row.item_id, scope: readScope(fields, row), similarity: 1 - row.distance }));
    },
    async get(scope, itemIds, model) {
      const where = exactScope(fields, scope);
      const found = new Map<string, Float32Array>();
      await inTransaction(async (connection) => {
        for (const ids of chunks([...new Set(itemIds)], 500)) {
          const rows = await connection.all<{ item_id: string; vector: Buffer }>(
            `SELECT item_id, vector FROM item_vectors WHERE ${where.sql} AND model = ? AND item_id IN (${placeholders(ids.length)})`,
            [...where.params, model, ...ids],
          );
          for (const row of rows) found.set(row.item_id, new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)));
        }
      });
      return found;
    },
  };
}

/** Refuses a validate-mode open whose vector table is missing or was made for other scope columns. */
export async function checkSqliteVectorTable(connection: SqlConnection, fields: readonly string[]): Promise<void> {
  const columns = (await connection.all<{ name: string }>(`SELECT name FROM pragma_table_info('item_vectors') ORDER BY cid`)).map((row) => row.name);
  const expected = fields.map((field) => scopeColumn(field).slice(1, -1));
  const scope = columns.filter((column) => column.startsWith('scope_'));
  if (columns.length === 0 || scope.join(',') !== expected.join(',')) {
    throw new MemoryConfigurationError({ message: `The vector table item_vectors is missing or has scope columns (${scope.join(', ')}) other than (${expected.join(', ')}).` });
  }
}
