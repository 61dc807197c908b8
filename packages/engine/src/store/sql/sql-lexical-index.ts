import type { LexicalSearchRequest } from '../engine-store';
import type { ItemRow, ScopeValues } from '../engine-store-rows';
import { placeholders, type SqlConnection } from './sql-connection';
import { scopeColumn } from './sql-dialect';
import { termFrequencies } from './sql-item-rows';
import { allOf, exactScope, itemFilterClause, scopeColumnList, scopeRange } from './sql-scope-clause';
import { chunks, type SqlStoreContext } from './sql-store-context';

/**
 * The lexical index of the SQL stores: a table of (scope, term, item, term frequency) rows written
 * beside each item from the tokens the engine analysed, with the scope columns leading its key, so
 * a search walks one scope prefix of the index. Scoring is the BM25 of `rankByBm25` in
 * `@memplane/core/rules` (k1 1.2, b 0.75, the corpus being the items of the range that pass the
 * filter), in plain SQL on both dialects, so SQLite, Postgres and the in-memory store rank alike.
 */

const k1 = 1.2;
const b = 0.75;

/** Writes the term rows of the given items (after removing any they had). */
export async function writeItemTerms(connection: SqlConnection, context: SqlStoreContext, items: readonly ItemRow[], replace: boolean): Promise<void> {
  const { dialect, fields } = context;
  const table = dialect.table('item_terms');
  if (replace) for (const item of items) await deleteItemTerms(connection, context, item.scope, [item.id]);
  const rows = items.flatMap((item) => [...termFrequencies(item.lexicalTokens)].map(([term, tf]) => ({ item, term, tf })));
  const columns = [...scopeColumnList(fields), 'term', 'item_id', 'tf'].join(', ');
  const row = `(${placeholders(fields.length + 3)})`;
  for (const batch of chunks(rows, 300)) {
    await connection.run(
      `INSERT INTO ${table} (${columns}) VALUES ${batch.map(() => row).join(', ')}`,
      batch.flatMap(({ item, term, tf }) => [...exactScope(fields, item.scope).params, term, item.id, tf]),
    );
  }
}

/** Removes the term rows of the given items of one scope. */
export async function deleteItemTerms(connection: SqlConnection, context: SqlStoreContext, scope: ScopeValues, itemIds: readonly string[]): Promise<void> {
  const where = exactScope(context.fields, scope);
  for (const ids of chunks(itemIds, 500)) {
    await connection.run(`DELETE FROM ${context.dialect.table('item_terms')} WHERE ${where.sql} AND item_id IN (${placeholders(ids.length)})`, [...where.params, ...ids]);
  }
}

/** One scored candidate. */
export interface ScoredItemId {
  readonly itemId: string;
  readonly score: number;
}

/**
 * The best `limit` items of the range that pass the filter and hold a query term, by BM25. Three
 * statements: the corpus size and mean length, the document frequency of each term, then the
 * scores, summed in SQL so only the kept candidates leave the database.
 */
export async function searchItemTerms(connection: SqlConnection, context: SqlStoreContext, request: LexicalSearchRequest): Promise<ScoredItemId[]> {
  const { dialect, fields } = context;
  const terms = [...new Set(request.terms)].slice(0, 256);
  if (terms.length === 0 || request.limit <= 0) return [];
  const items = dialect.table('items');
  const table = dialect.table('item_terms');
  const corpus = allOf(scopeRange(fields, request.range, 'i.'), itemFilterClause(dialect, request.filter, 'i.'));
  const [stats] = await connection.all<{ documents: number | string; average: number | string | null }>(
    `SELECT count(*) AS documents, avg(i.token_count) AS average FROM ${items} AS i WHERE ${corpus.sql}`,
    corpus.params,
  );
  const documents = Number(stats?.documents ?? 0);
  if (documents === 0) return [];
  const averageLength = Number(stats?.average ?? 0) || 1;
  const sameItem = ['i.id = t.item_id', ...fields.map((field) => `i.${scopeColumn(field)} = t.${scopeColumn(field)}`)].join(' AND ');
  const termRange = scopeRange(fields, request.range, 't.');
  const matched = allOf(termRange, corpus);
  const frequencies = await connection.all<{ term: string; df: number | string }>(
    `SELECT t.term AS term, count(*) AS df FROM ${table} AS t JOIN ${items} AS i ON ${sameItem}
     WHERE ${matched.sql} AND t.term IN (${placeholders(terms.length)}) GROUP BY t.term`,
    [...matched.params, ...terms],
  );
  if (frequencies.length === 0) return [];
  const idf = frequencies.map((row) => [row.term, Math.log(1 + (documents - Number(row.df) + 0.5) / (Number(row.df) + 0.5))] as const);
  const idfCase = `CASE term ${idf.map(() => 'WHEN ? THEN CAST(? AS DOUBLE PRECISION)').join(' ')} ELSE 0 END`;
  const contribution = `${idfCase} * tf * CAST(? AS DOUBLE PRECISION) / (tf + CAST(? AS DOUBLE PRECISION) * (1 - CAST(? AS DOUBLE PRECISION) + CAST(? AS DOUBLE PRECISION) * token_count / CAST(? AS DOUBLE PRECISION)))`;
  const present = idf.map(([term]) => term);
  // The postings are gathered first (MATERIALIZED): grouped in place, SQLite would rather walk every
  // term row of the scope in item order than look the few query terms up by the key.
  const rows = await connection.all<{ item_id: string; score: number | string }>(
    `WITH matched AS MATERIALIZED (
       SELECT t.item_id AS item_id, t.term AS term, t.tf AS tf, i.token_count AS token_count, i.created_at AS created_at
       FROM ${table} AS t JOIN ${items} AS i ON ${sameItem}
       WHERE ${matched.sql} AND t.term IN (${placeholders(present.length)}))
     SELECT item_id, sum(${contribution}) AS score, min(created_at) AS created_at FROM matched
     GROUP BY item_id ORDER BY score DESC, created_at, item_id LIMIT ?`,
    [...matched.params, ...present, ...idf.flatMap(([term, weight]) => [term, weight]), k1 + 1, k1, b, b, averageLength, request.limit],
  );
  return rows.map((row) => ({ itemId: row.item_id, score: Number(row.score) })).filter((hit) => hit.score > 0);
}
