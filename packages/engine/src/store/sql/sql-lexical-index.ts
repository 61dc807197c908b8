import { bm25B as b, bm25K1 as k1, inverseDocumentFrequency } from '@memplane/rules';
import type { LexicalPosting, LexicalPostings, LexicalPostingsRequest, LexicalSearchRequest, LexicalSequence } from '../engine-store';
import type { ItemRow } from '../engine-store-rows';
import { placeholders, type SqlConnection } from './sql-connection';
import { scopeColumn } from './sql-dialect';
import { termFrequencies } from './sql-item-rows';
import { allOf, exactScope, itemFilterClause, readScope, scopeColumnList, scopeRange } from './sql-scope-clause';
import { chunks, type SqlStoreContext } from './sql-store-context';

/**
 * The lexical index of the SQL stores: a table of (scope, term, item, term frequency) rows written
 * beside each item from the tokens the engine analysed, with the scope columns leading its key, so
 * a search walks one scope prefix of the index. Scoring is the BM25 of `rankByBm25` in
 * `@memplane/rules` (k1 1.2, b 0.75, the corpus being the items of the range that pass the
 * filter), in plain SQL on both dialects, so SQLite, Postgres and the in-memory store rank alike.
 */

/** Writes the term rows of the given items. */
export async function writeItemTerms(connection: SqlConnection, context: SqlStoreContext, items: readonly ItemRow[]): Promise<void> {
  const { dialect, fields } = context;
  const table = dialect.table('item_terms');
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

/**
 * Removes the term rows of the given items, found by the table's own key (scope, term, item):
 * the item's tokens name its terms, so the table needs no second index by item, which would
 * weigh as much as the table itself.
 */
export async function deleteItemTerms(connection: SqlConnection, context: SqlStoreContext, items: ReadonlyArray<Pick<ItemRow, 'id' | 'scope' | 'lexicalTokens'>>): Promise<void> {
  for (const item of items) {
    const where = exactScope(context.fields, item.scope);
    for (const terms of chunks([...new Set(item.lexicalTokens)], 500)) {
      await connection.run(`DELETE FROM ${context.dialect.table('item_terms')} WHERE ${where.sql} AND term IN (${placeholders(terms.length)}) AND item_id = ?`, [...where.params, ...terms, item.id]);
    }
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
  const idf = frequencies.map((row) => [row.term, inverseDocumentFrequency(documents, Number(row.df))] as const);
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

/**
 * The sequences and postings of a range (`lexicalPostings`): the ids and token counts of the items
 * passing the filter in scope and write order (one walk of the items' scope prefix), then the term
 * rows of the query terms from the term index's (scope, term) key, kept when their item is in a
 * sequence. No row text or token list leaves the database.
 */
export async function readItemPostings(connection: SqlConnection, context: SqlStoreContext, request: LexicalPostingsRequest): Promise<LexicalPostings> {
  const { dialect, fields } = context;
  const scopeColumns = scopeColumnList(fields);
  const corpus = allOf(scopeRange(fields, request.range), itemFilterClause(dialect, request.filter));
  const maxItems = request.maxItems ?? Number.MAX_SAFE_INTEGER;
  const rows = await connection.all<Record<string, unknown>>(
    `SELECT ${scopeColumns.join(', ')}, id, token_count FROM ${dialect.table('items')} WHERE ${corpus.sql} ORDER BY ${[...scopeColumns, 'created_at', 'id'].join(', ')} LIMIT ?`,
    [...corpus.params, Math.min(maxItems + 1, Number.MAX_SAFE_INTEGER)],
  );
  if (rows.length > maxItems) return { complete: false, sequences: [], postings: new Map() };
  const sequences: Array<LexicalSequence & { itemIds: string[]; lengths: number[] }> = [];
  const where = new Map<string, { sequence: number; position: number }>();
  let previousKey: string | undefined;
  for (const row of rows) {
    const key = fields.map((field) => String(row[`scope_${field}`])).join('\u0000');
    if (key !== previousKey || sequences.length === 0) {
      sequences.push({ scope: readScope(fields, row), itemIds: [], lengths: [] });
      previousKey = key;
    }
    const sequence = sequences[sequences.length - 1] as (typeof sequences)[number];
    where.set(String(row.id), { sequence: sequences.length - 1, position: sequence.itemIds.length });
    sequence.itemIds.push(String(row.id));
    sequence.lengths.push(Number(row.token_count));
  }
  const postings = new Map<string, LexicalPosting[]>();
  const terms = [...new Set(request.terms)].slice(0, 256);
  if (terms.length === 0 || sequences.length === 0) return { complete: true, sequences, postings };
  const termRange = scopeRange(fields, request.range);
  const termRows = await connection.all<{ term: string; item_id: string; tf: number | string }>(
    `SELECT term, item_id, tf FROM ${dialect.table('item_terms')} WHERE ${termRange.sql} AND term IN (${placeholders(terms.length)})`,
    [...termRange.params, ...terms],
  );
  for (const row of termRows) {
    const at = where.get(row.item_id);
    if (at === undefined) continue;
    const list = postings.get(row.term) ?? [];
    list.push({ ...at, tf: Number(row.tf) });
    postings.set(row.term, list);
  }
  return { complete: true, sequences, postings };
}
