import { createHash } from 'node:crypto';
import { MemoryConfigurationError } from '@memplane/core';
import type { MemoryLexicalFilter } from '@memplane/rules';
import { SqliteLexicalIndex, type SqliteDatabaseLike } from '@memplane/rules/sqlite';
import type { ItemRow, ScopeValues } from '../engine-store-rows';
import { scopeFilterOf, scopeTokensOf, type LexicalPlace } from '../lexical/lexical-places';
import { engineWindowShape } from '../lexical/lexical-search';
import type { SqlConnection } from '../sql/sql-connection';
import { quoteIdentifier } from '../sql/sql-dialect';
import type { SqlLexicalIndex } from '../sql/sql-lexical-index';
import { readItem } from '../sql/sql-item-rows';
import { allocatePlaces, deletePlaces, itemsOfRowids, lexicalPlaceStatements, placesOf, rangesOf } from '../sql/sql-lexical-places';
import type { SqlStoreContext } from '../sql/sql-store-context';
import { scopeKey } from '../row-filters';

/** The tables of the full-text index: `item_text_fts`, `_terms`, `_totals` and `_windows`. */
const indexName = 'item_text';

/**
 * The FTS5 token of a narrower scope value: a hash, so any string (spaces, quotes, another
 * script) is one token. A collision could only add candidates, and every candidate's row is
 * checked against the range before it is returned.
 */
function ftsTokenOf(token: string): string {
  return `s${createHash('sha256').update(token).digest('hex').slice(0, 24)}`;
}

/** The FTS5 expression of a scope filter over the `scope` column. */
function ftsFilterOf(filter: MemoryLexicalFilter | undefined): string | undefined {
  return filter?.map((clause) => `scope : (${clause.map((token) => `"${ftsTokenOf(token)}"`).join(' OR ')})`).join(' AND ');
}

/**
 * The lexical index of the SQLite engine store: `SqliteLexicalIndex` of `@memplane/rules/sqlite`,
 * the module markdown ranks on (FTS5 fed the analyser's tokens, BM25 from the query terms' postings,
 * totals and windows of 4 every 2 kept on write), in the store's own database and transactions.
 */
export function createSqliteItemTextIndex(database: SqliteDatabaseLike): SqlLexicalIndex {
  const index = new SqliteLexicalIndex<'body'>(database, { name: indexName, fields: ['body'], filterColumn: 'scope', windows: engineWindowShape });
  const documentOf = (context: SqlStoreContext, item: Pick<ItemRow, 'scope' | 'lexicalTokens'>, place: LexicalPlace) => ({
    rowid: place.rowid,
    block: place.block,
    tokens: { body: item.lexicalTokens },
    filterTokens: scopeTokensOf(context.fields, context.boundaryFields, item.scope).map(ftsTokenOf).join(' '),
    sequence: { id: place.sequence, position: place.position },
  });

  async function insert(connection: SqlConnection, context: SqlStoreContext, items: readonly ItemRow[]): Promise<void> {
    if (items.length === 0) return;
    const places = await allocatePlaces(connection, context, items);
    index.insertMany(items.map((item, at) => documentOf(context, item, places[at] as LexicalPlace)));
  }

  return {
    async provision(connection, context, ddlMode) {
      if (ddlMode === 'validate') {
        const missing: string[] = [];
        for (const table of ['lexical_blocks', 'lexical_sequences', 'item_places', `${indexName}_fts`, `${indexName}_terms`, `${indexName}_totals`, `${indexName}_windows`]) {
          const [row] = await connection.all<{ count: number }>(`SELECT count(*) AS count FROM sqlite_master WHERE name = ?`, [table]);
          if ((row?.count ?? 0) === 0) missing.push(table);
        }
        if (missing.length > 0) throw new MemoryConfigurationError({ message: `The lexical index tables (${missing.join(', ')}) are missing; open once with ddlMode "create" to build them.` });
        return;
      }
      for (const statement of lexicalPlaceStatements(context)) await connection.run(statement);
      index.create();
      // Stores written before this index kept a term table of their own: their items are indexed here once, in write order.
      const [unplaced] = await connection.all<{ count: number }>(`SELECT count(*) AS count FROM (SELECT 1 FROM ${context.dialect.table('items')} LIMIT 1) WHERE NOT EXISTS (SELECT 1 FROM ${context.dialect.table('item_places')})`);
      if ((unplaced?.count ?? 0) > 0) {
        const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${context.dialect.table('items')} ORDER BY created_at, id`);
        await insert(connection, context, rows.map((row) => readItem(context.dialect, context.fields, row)));
      }
      await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier('item_terms')}`);
    },
    insert,
    async reindex(connection, context, previous, next) {
      const place = (await placesOf(connection, context, previous.scope, [previous.id])).get(previous.id);
      if (place === undefined) return insert(connection, context, [next]);
      index.delete(place.rowid);
      index.insertMany([documentOf(context, next, place)]);
      await connection.run(`UPDATE ${context.dialect.table('item_places')} SET length = ? WHERE rowid = ?`, [next.lexicalTokens.length, place.rowid]);
    },
    async remove(connection, context, items) {
      const byScope = new Map<string, { scope: ScopeValues; ids: string[] }>();
      for (const item of items) {
        const entry = byScope.get(scopeKey(item.scope)) ?? { scope: item.scope, ids: [] };
        entry.ids.push(item.id);
        byScope.set(scopeKey(item.scope), entry);
      }
      const rowids: number[] = [];
      for (const { scope, ids } of byScope.values()) for (const place of (await placesOf(connection, context, scope, ids)).values()) rowids.push(place.rowid);
      if (rowids.length === 0) return;
      for (const rowid of rowids) index.delete(rowid);
      await deletePlaces(connection, context, rowids);
      // A deleted row leaves a tombstone in FTS5 and its terms in old segments: a merge drops them (forget means gone).
      index.optimize();
    },
    source(connection, context) {
      return {
        async score(range, terms, windows) {
          const ranges = await rangesOf(connection, context, range);
          const filter = ftsFilterOf(scopeFilterOf(context.fields, context.boundaryFields, range));
          if (windows) return index.scoreWithWindows(terms, ranges, filter);
          return { documents: index.score('body', terms, ranges, filter), windows: new Map(), bestWindow: new Map() };
        },
        windowMembers: async (keys) => index.windowMembers(keys),
        itemsOf: (rowids) => itemsOfRowids(connection, context, rowids),
      };
    },
  };
}
