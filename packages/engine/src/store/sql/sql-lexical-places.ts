import type { LexicalRange } from '@memplane/rules';
import type { ItemRow, ScopeRange, ScopeValues } from '../engine-store-rows';
import { blockKeyInRange, blockKeyOf, blockKeysOf, blockSize, rangeOfBlock, sequenceKeyOf, type LexicalPlace } from '../lexical/lexical-places';
import { placeholders, type SqlConnection } from './sql-connection';
import { quoteIdentifier, scopeColumn } from './sql-dialect';
import { readItem } from './sql-item-rows';
import { exactScope, scopeColumnList } from './sql-scope-clause';
import { chunks, type SqlStoreContext } from './sql-store-context';

/**
 * The places of the engine's items in its lexical index, in SQL (both dialects): the blocks and
 * sequences numbered in order of first write, each with its next rowid or position, and one row per
 * indexed item (`item_places`: its rowid, block, sequence, position and token count). A writer locks
 * the rows of the blocks and sequences it appends to (`FOR UPDATE` on Postgres; SQLite has one
 * writer), so concurrent writers never share a place and a sequence's windows change under one lock.
 */

/** The tables of the places, idempotent. */
export function lexicalPlaceStatements(context: Pick<SqlStoreContext, 'dialect' | 'fields'>): string[] {
  const { dialect, fields } = context;
  const scope = scopeColumnList(fields);
  const integer = dialect.name === 'postgres' ? 'BIGINT' : 'INTEGER';
  const places = dialect.table('item_places');
  return [
    `CREATE TABLE IF NOT EXISTS ${dialect.table('lexical_blocks')} (key TEXT NOT NULL PRIMARY KEY, block ${integer} NOT NULL UNIQUE, next_rowid ${integer} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${dialect.table('lexical_sequences')} (key TEXT NOT NULL PRIMARY KEY, sequence ${integer} NOT NULL UNIQUE, next_position ${integer} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${places} (${scope.map((column) => `${column} TEXT NOT NULL`).join(', ')}, item_id TEXT NOT NULL, rowid ${integer} NOT NULL PRIMARY KEY, block ${integer} NOT NULL, sequence ${integer} NOT NULL, position ${integer} NOT NULL, length INTEGER NOT NULL)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdentifier('item_places_item')} ON ${places} (${[...scope, quoteIdentifier('item_id')].join(', ')})`,
    `CREATE INDEX IF NOT EXISTS ${quoteIdentifier('item_places_sequence')} ON ${places} (sequence, position)`,
  ];
}

interface Counter {
  readonly number: number;
  next: number;
  changed: boolean;
}

/** Allocates a place for each new item, in order, and records it. */
export async function allocatePlaces(connection: SqlConnection, context: SqlStoreContext, items: readonly ItemRow[]): Promise<LexicalPlace[]> {
  const { dialect, boundaryFields } = context;
  const blocks = new Map<string, Counter>();
  const sequences = new Map<string, Counter>();
  const counterOf = async (cache: Map<string, Counter>, table: 'lexical_blocks' | 'lexical_sequences', key: string): Promise<Counter> => {
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const [number, next] = table === 'lexical_blocks' ? ['block', 'next_rowid'] : ['sequence', 'next_position'];
    const read = async () =>
      (await connection.all<{ number: number | string; next: number | string }>(`SELECT ${number} AS number, ${next} AS next FROM ${dialect.table(table)} WHERE key = ?${dialect.name === 'postgres' ? ' FOR UPDATE' : ''}`, [key]))[0];
    let row = await read();
    if (row === undefined) {
      // A new block or sequence takes the next number; on Postgres, creators queue on one lock and look again.
      if (dialect.name === 'postgres') await connection.all(`SELECT pg_advisory_xact_lock(hashtext(?))`, [`memplane-engine:${dialect.table(table)}`]);
      row = await read();
      if (row === undefined) {
        await connection.run(`INSERT INTO ${dialect.table(table)} (key, ${number}, ${next}) SELECT ?, coalesce(max(${number}), -1) + 1, 0 FROM ${dialect.table(table)}`, [key]);
        row = await read();
      }
    }
    const counter = { number: Number(row?.number), next: Number(row?.next), changed: false };
    cache.set(key, counter);
    return counter;
  };
  const placed: LexicalPlace[] = [];
  for (const item of items) {
    const block = await counterOf(blocks, 'lexical_blocks', blockKeyOf(boundaryFields, item.scope));
    const sequence = await counterOf(sequences, 'lexical_sequences', sequenceKeyOf(item.scope));
    placed.push({ rowid: block.number * blockSize + block.next, block: block.number, sequence: sequence.number, position: sequence.next });
    block.next += 1;
    sequence.next += 1;
    block.changed = true;
    sequence.changed = true;
  }
  for (const [table, column, cache] of [['lexical_blocks', 'next_rowid', blocks], ['lexical_sequences', 'next_position', sequences]] as const) {
    for (const [key, counter] of cache) if (counter.changed) await connection.run(`UPDATE ${dialect.table(table)} SET ${column} = ? WHERE key = ?`, [counter.next, key]);
  }
  const columns = [...scopeColumnList(context.fields), 'item_id', 'rowid', 'block', 'sequence', 'position', 'length'];
  const row = `(${placeholders(columns.length)})`;
  const rows = items.map((item, at) => ({ item, place: placed[at] as LexicalPlace }));
  for (const batch of chunks(rows, 100)) {
    await connection.run(
      `INSERT INTO ${dialect.table('item_places')} (${columns.join(', ')}) VALUES ${batch.map(() => row).join(', ')}`,
      batch.flatMap(({ item, place }) => [...context.fields.map((field) => item.scope[field]), item.id, place.rowid, place.block, place.sequence, place.position, item.lexicalTokens.length]),
    );
  }
  return placed;
}

/**
 * Locks the sequences of these scopes for the rest of the transaction (Postgres), so windows a
 * delete or a re-index changes are not changed by another writer meanwhile.
 */
export async function lockSequences(connection: SqlConnection, context: SqlStoreContext, scopes: readonly ScopeValues[]): Promise<void> {
  if (context.dialect.name !== 'postgres') return;
  const keys = [...new Set(scopes.map(sequenceKeyOf))].sort();
  for (const batch of chunks(keys, 500)) await connection.all(`SELECT key FROM ${context.dialect.table('lexical_sequences')} WHERE key IN (${placeholders(batch.length)}) ORDER BY key FOR UPDATE`, batch);
}

/** The places of these items of one scope, by item id. */
export async function placesOf(connection: SqlConnection, context: SqlStoreContext, scope: ScopeValues, itemIds: readonly string[]): Promise<Map<string, LexicalPlace & { length: number }>> {
  const found = new Map<string, LexicalPlace & { length: number }>();
  const where = exactScope(context.fields, scope);
  for (const ids of chunks([...new Set(itemIds)], 500)) {
    const rows = await connection.all<Record<string, number | string>>(
      `SELECT item_id, rowid, block, sequence, position, length FROM ${context.dialect.table('item_places')} WHERE ${where.sql} AND item_id IN (${placeholders(ids.length)})`,
      [...where.params, ...ids],
    );
    for (const row of rows) found.set(String(row.item_id), { rowid: Number(row.rowid), block: Number(row.block), sequence: Number(row.sequence), position: Number(row.position), length: Number(row.length) });
  }
  return found;
}

/** Forgets the places of these rowids. */
export async function deletePlaces(connection: SqlConnection, context: SqlStoreContext, rowids: readonly number[]): Promise<void> {
  for (const batch of chunks(rowids, 500)) await connection.run(`DELETE FROM ${context.dialect.table('item_places')} WHERE rowid IN (${placeholders(batch.length)})`, batch);
}

/** The rowid ranges of the blocks a range covers (blocks with no write yet are absent). */
export async function rangesOf(connection: SqlConnection, context: SqlStoreContext, range: ScopeRange): Promise<LexicalRange[]> {
  const table = context.dialect.table('lexical_blocks');
  const keys = blockKeysOf(context.boundaryFields, range);
  const rows =
    keys === undefined
      ? (await connection.all<{ key: string; block: number | string }>(`SELECT key, block FROM ${table}`)).filter((row) => blockKeyInRange(context.boundaryFields, row.key, range))
      : keys.length === 0
        ? []
        : await connection.all<{ key: string; block: number | string }>(`SELECT key, block FROM ${table} WHERE key IN (${placeholders(keys.length)})`, keys);
  return rows.map((row) => rangeOfBlock(Number(row.block))).sort((left, right) => left.block - right.block);
}

/**
 * The item rows of these rowids, by rowid, found through the places' key and the items' id (unique
 * in the store). The caller checks each row's scope against its range (as the search does): a
 * condition on the scope here would let a planner walk the scope instead of looking the ids up.
 */
export async function itemsOfRowids(connection: SqlConnection, context: SqlStoreContext, rowids: readonly number[]): Promise<Map<number, ItemRow>> {
  const { dialect, fields } = context;
  const found = new Map<number, ItemRow>();
  for (const batch of chunks([...new Set(rowids)], 500)) {
    const rows = await connection.all<Record<string, unknown>>(
      `SELECT p.rowid AS place_rowid, i.* FROM ${dialect.table('item_places')} AS p JOIN ${dialect.table('items')} AS i ON i.id = p.item_id WHERE p.rowid IN (${placeholders(batch.length)})`,
      batch,
    );
    for (const row of rows) found.set(Number(row.place_rowid), readItem(dialect, fields, row));
  }
  return found;
}
