import { MemoryConfigurationError } from '@memplane/core';
import { planWindowWrites, scoreDocuments, scoreWithWindows, windowKeysCovering, windowOfKey, type LexicalPosting, type LexicalRange, type LexicalTotals, type WindowChange } from '@memplane/rules';
import type { ItemRow, ScopeRange, ScopeValues } from '../engine-store-rows';
import type { LexicalPlace } from '../lexical/lexical-places';
import { engineWindowShape } from '../lexical/lexical-search';
import { scopeKey } from '../row-filters';
import type { SqlConnection } from '../sql/sql-connection';
import { quoteIdentifier, scopeColumn } from '../sql/sql-dialect';
import { readItem } from '../sql/sql-item-rows';
import type { SqlLexicalIndex } from '../sql/sql-lexical-index';
import { allocatePlaces, deletePlaces, itemsOfRowids, lexicalPlaceStatements, lockSequences, placesOf, rangesOf } from '../sql/sql-lexical-places';
import { chunks, type SqlStoreContext } from '../sql/sql-store-context';

/**
 * The lexical index of the Postgres engine store: a term table keyed by (block, term, rowid), so
 * a query term's postings in a company are one range of a B-tree, with each posting's term
 * frequency, length and place beside it; the block totals and the neighbour windows kept on write,
 * in the writer's transaction. The scores come from `@memplane/rules`' windowed BM25, the same as
 * SQLite's FTS5 and the in-memory index.
 *
 * Why a B-tree and not a GIN index over a `tsvector`: a GIN index has no company prefix (without
 * the `btree_gin` extension), so a common term's postings would be read for every company and
 * filtered after; and a `tsvector` gives term frequencies only through its positions. The
 * (block, term) key reads exactly one company's postings of one term, which is what BM25 needs.
 */

/** The narrower scope columns of a posting (the boundary fields are its block). */
const narrowerOf = (context: SqlStoreContext) => context.fields.filter((field) => !context.boundaryFields.includes(field));

/** The window changes of documents joining (`sign` 1) or leaving (-1) their windows. */
function windowChanges(documents: ReadonlyArray<{ place: LexicalPlace; length: number }>, sign: 1 | -1): WindowChange[] {
  const changes = new Map<number, WindowChange>();
  for (const { place, length } of documents) {
    // A document without tokens lends nothing to its neighbours: it is no member.
    if (length === 0) continue;
    for (const key of windowKeysCovering(place.sequence, place.position, engineWindowShape)) {
      const change = changes.get(key);
      changes.set(key, { key, block: place.block, length: (change?.length ?? 0) + sign * length, members: (change?.members ?? 0) + sign });
    }
  }
  return [...changes.values()];
}

export const postgresTermIndex: SqlLexicalIndex = {
  async provision(connection, context, ddlMode) {
    const { dialect } = context;
    const tables = ['lexical_blocks', 'lexical_sequences', 'item_places', 'lexical_postings', 'lexical_totals', 'lexical_windows'];
    if (ddlMode === 'validate') {
      const missing: string[] = [];
      for (const table of tables) {
        const [row] = await connection.all<{ found: string | null }>(`SELECT to_regclass(?)::text AS found`, [dialect.table(table)]);
        if (row?.found === null || row?.found === undefined) missing.push(table);
      }
      if (missing.length > 0) throw new MemoryConfigurationError({ message: `The lexical index tables (${missing.join(', ')}) are missing; open once with ddlMode "create" to build them.` });
      return;
    }
    const narrower = narrowerOf(context).map((field) => `${scopeColumn(field)} TEXT NOT NULL`);
    for (const statement of [
      ...lexicalPlaceStatements(context),
      `CREATE TABLE IF NOT EXISTS ${dialect.table('lexical_postings')} (block BIGINT NOT NULL, term TEXT NOT NULL, rowid BIGINT NOT NULL, tf INTEGER NOT NULL, length INTEGER NOT NULL, sequence BIGINT NOT NULL, position BIGINT NOT NULL${narrower.map((column) => `, ${column}`).join('')}, PRIMARY KEY (block, term, rowid))`,
      `CREATE TABLE IF NOT EXISTS ${dialect.table('lexical_totals')} (block BIGINT NOT NULL PRIMARY KEY, documents BIGINT NOT NULL, length BIGINT NOT NULL, windows BIGINT NOT NULL, window_length BIGINT NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${dialect.table('lexical_windows')} (key BIGINT NOT NULL PRIMARY KEY, block BIGINT NOT NULL, length BIGINT NOT NULL, members INTEGER NOT NULL)`,
    ]) {
      await connection.run(statement);
    }
    // Stores written before this index kept a term table of their own: their items are indexed here once, in write order.
    const [unplaced] = await connection.all<{ count: number | string }>(
      `SELECT count(*) AS count FROM (SELECT 1 FROM ${dialect.table('items')} LIMIT 1) AS any_item WHERE NOT EXISTS (SELECT 1 FROM ${dialect.table('item_places')})`,
    );
    if (Number(unplaced?.count ?? 0) > 0) {
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${dialect.table('items')} ORDER BY created_at, id`);
      for (const batch of chunks(rows, 1000)) await this.insert(connection, context, batch.map((row) => readItem(dialect, context.fields, row)));
    }
    await connection.run(`DROP TABLE IF EXISTS ${dialect.table('item_terms')}`);
  },

  async insert(connection, context, items) {
    if (items.length === 0) return;
    const places = await allocatePlaces(connection, context, items);
    await addDocuments(connection, context, items.map((item, at) => ({ item, place: places[at] as LexicalPlace })));
  },

  async reindex(connection, context, previous, next) {
    await lockSequences(connection, context, [previous.scope]);
    const place = (await placesOf(connection, context, previous.scope, [previous.id])).get(previous.id);
    if (place === undefined) return this.insert(connection, context, [next]);
    await removeDocuments(connection, context, [{ item: previous, place }]);
    await addDocuments(connection, context, [{ item: next, place }]);
    await connection.run(`UPDATE ${context.dialect.table('item_places')} SET length = ? WHERE rowid = ?`, [next.lexicalTokens.length, place.rowid]);
  },

  async remove(connection, context, items) {
    if (items.length === 0) return;
    await lockSequences(connection, context, items.map((item) => item.scope));
    const byScope = new Map<string, { scope: ScopeValues; items: Array<Pick<ItemRow, 'id' | 'scope' | 'lexicalTokens'>> }>();
    for (const item of items) {
      const entry = byScope.get(scopeKey(item.scope)) ?? { scope: item.scope, items: [] };
      entry.items.push(item);
      byScope.set(scopeKey(item.scope), entry);
    }
    const placed: Array<{ item: Pick<ItemRow, 'id' | 'scope' | 'lexicalTokens'>; place: LexicalPlace }> = [];
    for (const entry of byScope.values()) {
      const places = await placesOf(connection, context, entry.scope, entry.items.map((item) => item.id));
      for (const item of entry.items) {
        const place = places.get(item.id);
        if (place !== undefined) placed.push({ item, place });
      }
    }
    await removeDocuments(connection, context, placed);
    await deletePlaces(connection, context, placed.map(({ place }) => place.rowid));
  },

  source(connection, context) {
    return {
      async score(range, terms, windows) {
        const ranges = await rangesOf(connection, context, range);
        const none = { documents: new Map<number, number>(), windows: new Map<number, number>(), bestWindow: new Map<number, number>() };
        if (ranges.length === 0) return none;
        const totals = await totalsOf(connection, context, ranges);
        if (totals.documents === 0 || totals.length === 0) return none;
        const postings = await postingsOf(connection, context, ranges, terms, range);
        if (!windows) return { ...none, documents: scoreDocuments(totals, postings) };
        const pending = scoreWithWindows(totals, postings, engineWindowShape);
        return pending.finish(await windowLengths(connection, context, pending.keys));
      },
      windowMembers: (keys) => windowMembers(connection, context, keys),
      itemsOf: (rowids) => itemsOfRowids(connection, context, rowids),
    };
  },
};

/** Writes the postings, totals and windows of placed documents. */
async function addDocuments(connection: SqlConnection, context: SqlStoreContext, documents: ReadonlyArray<{ item: Pick<ItemRow, 'scope' | 'lexicalTokens'>; place: LexicalPlace }>): Promise<void> {
  const { dialect } = context;
  const narrower = narrowerOf(context);
  const columns = ['block', 'term', 'rowid', 'tf', 'length', 'sequence', 'position', ...narrower.map(scopeColumn)];
  const rows = documents.flatMap(({ item, place }) => {
    const counts = new Map<string, number>();
    for (const token of item.lexicalTokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return [...counts].map(([term, tf]) => [place.block, term, place.rowid, tf, item.lexicalTokens.length, place.sequence, place.position, ...narrower.map((field) => item.scope[field])]);
  });
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (const batch of chunks(rows, Math.floor(8000 / columns.length))) {
    await connection.run(`INSERT INTO ${dialect.table('lexical_postings')} (${columns.join(', ')}) VALUES ${batch.map(() => row).join(', ')}`, batch.flat());
  }
  await addToTotals(connection, context, documents.map(({ item, place }) => ({ block: place.block, documents: 1, length: item.lexicalTokens.length })));
  await applyWindowChanges(connection, context, windowChanges(documents.map(({ item, place }) => ({ place, length: item.lexicalTokens.length })), 1));
}

/** Deletes the postings, and the share of the totals and windows, of placed documents (their tokens name their postings). */
async function removeDocuments(connection: SqlConnection, context: SqlStoreContext, documents: ReadonlyArray<{ item: Pick<ItemRow, 'lexicalTokens'>; place: LexicalPlace }>): Promise<void> {
  const table = context.dialect.table('lexical_postings');
  for (const { item, place } of documents) {
    for (const terms of chunks([...new Set(item.lexicalTokens)], 500)) {
      await connection.run(`DELETE FROM ${table} WHERE block = ? AND term = ANY(?::text[]) AND rowid = ?`, [place.block, terms, place.rowid]);
    }
  }
  await addToTotals(connection, context, documents.map(({ item, place }) => ({ block: place.block, documents: -1, length: -item.lexicalTokens.length })));
  await applyWindowChanges(connection, context, windowChanges(documents.map(({ item, place }) => ({ place, length: item.lexicalTokens.length })), -1));
}

async function addToTotals(
  connection: SqlConnection,
  context: SqlStoreContext,
  changes: ReadonlyArray<{ block: number; documents: number; length: number }>,
  windows: ReadonlyMap<number, { readonly windows: number; readonly length: number }> = new Map(),
): Promise<void> {
  const sums = new Map<number, { documents: number; length: number; windows: number; windowLength: number }>();
  for (const change of changes) {
    const sum = sums.get(change.block) ?? { documents: 0, length: 0, windows: 0, windowLength: 0 };
    sum.documents += change.documents;
    sum.length += change.length;
    sums.set(change.block, sum);
  }
  for (const [block, change] of windows) {
    const sum = sums.get(block) ?? { documents: 0, length: 0, windows: 0, windowLength: 0 };
    sum.windows += change.windows;
    sum.windowLength += change.length;
    sums.set(block, sum);
  }
  for (const [block, sum] of [...sums].sort(([left], [right]) => left - right)) {
    await connection.run(
      `INSERT INTO ${context.dialect.table('lexical_totals')} AS t (block, documents, length, windows, window_length) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (block) DO UPDATE SET documents = t.documents + excluded.documents, length = t.length + excluded.length, windows = t.windows + excluded.windows, window_length = t.window_length + excluded.window_length`,
      [block, sum.documents, sum.length, sum.windows, sum.windowLength],
    );
  }
}

/**
 * Applies window changes (`planWindowWrites`: a window is created with its first member and
 * deleted with its last). The writer holds the lock of every sequence it changes, so no other
 * writer touches these rows.
 */
async function applyWindowChanges(connection: SqlConnection, context: SqlStoreContext, changes: readonly WindowChange[]): Promise<void> {
  if (changes.length === 0) return;
  const table = context.dialect.table('lexical_windows');
  const current = new Map<number, { length: number; members: number }>();
  for (const keys of chunks(changes.map((change) => change.key), 1000)) {
    for (const row of await connection.all<{ key: string | number; length: string | number; members: number }>(`SELECT key, length, members FROM ${table} WHERE key = ANY(?::bigint[])`, [keys])) {
      current.set(Number(row.key), { length: Number(row.length), members: Number(row.members) });
    }
  }
  const { rows, totals } = planWindowWrites(current, changes);
  for (const row of rows) {
    if (row.action === 'insert') await connection.run(`INSERT INTO ${table} (key, block, length, members) VALUES (?, ?, ?, ?)`, [row.key, row.block, row.length, row.members]);
    else if (row.action === 'delete') await connection.run(`DELETE FROM ${table} WHERE key = ?`, [row.key]);
    else await connection.run(`UPDATE ${table} SET length = ?, members = ? WHERE key = ?`, [row.length, row.members, row.key]);
  }
  await addToTotals(connection, context, [], totals);
}

async function totalsOf(connection: SqlConnection, context: SqlStoreContext, ranges: readonly LexicalRange[]): Promise<LexicalTotals> {
  const [row] = await connection.all<Record<string, string | number | null>>(
    `SELECT sum(documents) AS documents, sum(length) AS length, sum(windows) AS windows, sum(window_length) AS window_length FROM ${context.dialect.table('lexical_totals')} WHERE block = ANY(?::bigint[])`,
    [ranges.map((range) => range.block)],
  );
  return { documents: Number(row?.documents ?? 0), length: Number(row?.length ?? 0), windows: Number(row?.windows ?? 0), windowLength: Number(row?.window_length ?? 0) };
}

/** Each query term's postings in the blocks, marked whether the posting's narrower scope lies in the range. */
async function postingsOf(connection: SqlConnection, context: SqlStoreContext, ranges: readonly LexicalRange[], terms: readonly string[], range: ScopeRange): Promise<Map<string, LexicalPosting[]>> {
  const narrower = narrowerOf(context);
  const pinned = narrower.filter((field) => range[field] !== undefined);
  const rows = await connection.all<Record<string, string | number>>(
    `SELECT term, rowid, tf, length, sequence, position${pinned.map((field) => `, ${scopeColumn(field)} AS ${quoteIdentifier(`n_${pinned.indexOf(field)}`)}`).join('')}
     FROM ${context.dialect.table('lexical_postings')} WHERE block = ANY(?::bigint[]) AND term = ANY(?::text[])`,
    [ranges.map((entry) => entry.block), [...new Set(terms)]],
  );
  const byTerm = new Map<string, LexicalPosting[]>();
  for (const row of rows) {
    const passes = pinned.every((field, at) => (range[field] as readonly string[]).includes(String(row[`n_${at}`])));
    const posting = { rowid: Number(row.rowid), length: Number(row.length), frequency: Number(row.tf), sequence: Number(row.sequence), position: Number(row.position), passes };
    const list = byTerm.get(String(row.term));
    if (list === undefined) byTerm.set(String(row.term), [posting]);
    else list.push(posting);
  }
  // The same order whatever the plan: by rowid, as the other indexes read them.
  for (const list of byTerm.values()) list.sort((left, right) => left.rowid - right.rowid);
  return new Map([...new Set(terms)].flatMap((term) => (byTerm.has(term) ? [[term, byTerm.get(term) as LexicalPosting[]] as const] : [])));
}

async function windowLengths(connection: SqlConnection, context: SqlStoreContext, keys: readonly number[]): Promise<Map<number, number>> {
  const lengths = new Map<number, number>();
  for (const batch of chunks(keys, 5000)) {
    for (const row of await connection.all<{ key: string | number; length: string | number }>(`SELECT key, length FROM ${context.dialect.table('lexical_windows')} WHERE key = ANY(?::bigint[])`, [batch])) {
      lengths.set(Number(row.key), Number(row.length));
    }
  }
  return lengths;
}

/** The members of windows (documents with tokens), through the (sequence, position) index. */
async function windowMembers(connection: SqlConnection, context: SqlStoreContext, keys: readonly number[]): Promise<Array<[number, number]>> {
  const members: Array<[number, number]> = [];
  const { size, stride } = engineWindowShape;
  for (const batch of chunks([...new Set(keys)], 200)) {
    const windows = batch.map(windowOfKey);
    const rows = await connection.all<{ sequence: string | number; position: string | number; rowid: string | number }>(
      `SELECT sequence, position, rowid FROM ${context.dialect.table('item_places')} WHERE length > 0 AND (${windows.map(() => '(sequence = ? AND position BETWEEN ? AND ?)').join(' OR ')})`,
      windows.flatMap(({ sequence, start }) => [sequence, start, start + size - 1]),
    );
    const wanted = new Set(batch);
    for (const row of rows) {
      for (const key of windowKeysCovering(Number(row.sequence), Number(row.position), { size, stride })) if (wanted.has(key)) members.push([key, Number(row.rowid)]);
    }
  }
  return members;
}
