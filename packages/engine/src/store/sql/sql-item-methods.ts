import { MemoryConflictError } from '@memplane/core';
import type { EngineStoreSession, ItemFilter, ItemKeyset } from '../engine-store';
import type { ItemPatch, ItemRow, ScopeRange, ScopeValues } from '../engine-store-rows';
import { placeholders, type SqlConnection } from './sql-connection';
import { quoteIdentifier } from './sql-dialect';
import { itemColumns, itemParams, itemPatchSet, readItem } from './sql-item-rows';
import { searchLexicalIndex } from '../lexical/lexical-search';
import { allOf, exactScope, itemFilterClause, scopeColumnList, scopeRange } from './sql-scope-clause';
import { chunks, type SqlStoreContext, withConflict } from './sql-store-context';

type ItemMethods = Pick<
  EngineStoreSession,
  'insertItems' | 'getItems' | 'getItemsInRange' | 'updateItem' | 'deleteItems' | 'listItems' | 'findItemsByTextHash' | 'searchLexical' | 'recordItemUse' | 'countItems'
>;

/** The item reads and writes of the SQL stores; every statement compares all scope columns. */
export function sqlItemMethods(connection: SqlConnection, context: SqlStoreContext): ItemMethods {
  const { dialect, fields } = context;
  const items = dialect.table('items');
  const columns = [...scopeColumnList(fields), ...itemColumns.map(quoteIdentifier)].join(', ');
  const rowPlaceholders = `(${placeholders(fields.length + itemColumns.length)})`;
  const read = (rows: Array<Record<string, unknown>>) => rows.map((row) => readItem(dialect, fields, row));
  const idIn = (ids: readonly string[]) => `${quoteIdentifier('id')} IN (${placeholders(ids.length)})`;

  async function getItems(scope: ScopeValues, itemIds: readonly string[]): Promise<Map<string, ItemRow>> {
    const found = new Map<string, ItemRow>();
    const where = exactScope(fields, scope, '', dialect.recheck);
    for (const ids of chunks([...new Set(itemIds)], 500)) {
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${items} WHERE ${where.sql} AND ${idIn(ids)}`, [...where.params, ...ids]);
      for (const item of read(rows)) found.set(item.id, item);
    }
    return found;
  }

  async function getItemsInRange(range: ScopeRange, itemIds: readonly string[]): Promise<Map<string, ItemRow>> {
    const found = new Map<string, ItemRow>();
    const where = scopeRange(fields, range, '', dialect.recheck);
    for (const ids of chunks([...new Set(itemIds)], 500)) {
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${items} WHERE ${where.sql} AND ${idIn(ids)}`, [...where.params, ...ids]);
      for (const item of read(rows)) found.set(item.id, item);
    }
    return found;
  }

  return {
    getItemsInRange,
    async insertItems(rows) {
      // Each row's scope is checked like any other write: every field present, no stranger.
      for (const row of rows) exactScope(fields, row.scope);
      for (const batch of chunks(rows, 100)) {
        await withConflict(context, 'An item with one of these ids already exists.', () =>
          connection.run(
            `INSERT INTO ${items} (${columns}) VALUES ${batch.map(() => rowPlaceholders).join(', ')}`,
            batch.flatMap((item) => itemParams(dialect, fields, item)),
          ),
        );
      }
      await context.lexical.insert(connection, context, rows);
    },

    getItems,

    async updateItem(scope: ScopeValues, itemId: string, expectedVersion: number, patch: ItemPatch) {
      const current = (await getItems(scope, [itemId])).get(itemId);
      if (current === undefined) return undefined;
      if (current.version !== expectedVersion) {
        throw new MemoryConflictError({ message: `Item ${itemId} is at version ${current.version}, not ${expectedVersion}: it changed meanwhile.` });
      }
      const set = itemPatchSet(dialect, patch);
      const where = exactScope(fields, scope);
      const changed = await connection.run(`UPDATE ${items} SET ${set.sql} WHERE ${where.sql} AND id = ? AND version = ?`, [
        ...set.params,
        ...where.params,
        itemId,
        expectedVersion,
      ]);
      // Another writer updated it between the read and this statement.
      if (changed === 0) throw new MemoryConflictError({ message: `Item ${itemId} changed while it was being updated (expected version ${expectedVersion}).` });
      const updated = (await getItems(scope, [itemId])).get(itemId);
      if (updated !== undefined && patch.lexicalTokens !== undefined) await context.lexical.reindex(connection, context, current, updated);
      return updated;
    },

    async deleteItems(scope, itemIds) {
      const where = exactScope(fields, scope, '', dialect.recheck);
      const deleted: Array<{ id: string; scope: ScopeValues; lexicalTokens: string[] }> = [];
      for (const ids of chunks([...new Set(itemIds)], 500)) {
        const rows = await connection.all<{ id: string; lexical_tokens: unknown }>(`DELETE FROM ${items} WHERE ${where.sql} AND ${idIn(ids)} RETURNING id, lexical_tokens`, [...where.params, ...ids]);
        deleted.push(...rows.map((row) => ({ id: row.id, scope, lexicalTokens: dialect.readJson<string[]>(row.lexical_tokens) })));
      }
      await context.lexical.remove(connection, context, deleted);
      return deleted.map((row) => row.id);
    },

    async listItems(range: ScopeRange, filter: ItemFilter, page: { after?: ItemKeyset | undefined; limit: number }) {
      const after = page.after === undefined ? { sql: '1 = 1', params: [] } : { sql: '(created_at > ? OR (created_at = ? AND id > ?))', params: [page.after.createdAt, page.after.createdAt, page.after.id] };
      const where = allOf(scopeRange(fields, range), itemFilterClause(dialect, filter), after);
      return read(await connection.all(`SELECT * FROM ${items} WHERE ${where.sql} ORDER BY created_at, id LIMIT ?`, [...where.params, page.limit]));
    },

    async findItemsByTextHash(scope, textHashes) {
      if (textHashes.length === 0) return [];
      const where = exactScope(fields, scope);
      const found: ItemRow[] = [];
      for (const hashes of chunks([...new Set(textHashes)], 500)) {
        const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${items} WHERE ${where.sql} AND text_hash IN (${placeholders(hashes.length)}) ORDER BY created_at, id`, [
          ...where.params,
          ...hashes,
        ]);
        found.push(...read(rows));
      }
      return found;
    },

    searchLexical: (request) => searchLexicalIndex(context.lexical.source(connection, context), request),

    async recordItemUse(scope, itemIds, at) {
      const where = exactScope(fields, scope, '', dialect.recheck);
      for (const ids of chunks([...new Set(itemIds)], 500)) {
        await connection.run(`UPDATE ${items} SET use_count = use_count + 1, last_used_at = ? WHERE ${where.sql} AND ${idIn(ids)}`, [at, ...where.params, ...ids]);
      }
    },

    async countItems(range, filter) {
      const where = allOf(scopeRange(fields, range), itemFilterClause(dialect, filter));
      const [row] = await connection.all<{ count: number | string }>(`SELECT count(*) AS count FROM ${items} WHERE ${where.sql}`, where.params);
      return Number(row?.count ?? 0);
    },
  };
}
