import { planWindowWrites, windowOfKey, type WindowChange } from '../lexical-windows';
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database-like';

/**
 * The rows of the neighbour windows, `<name>_windows`: each window's key, block, total length and
 * member count, kept on write; and the windows' share of the block totals (`windows`,
 * `window_length`). Windows have no text of their own: a search sums their members' postings, so
 * a window costs one small row instead of a second full-text index of every document.
 */
export class SqliteWindowTable {
  private readonly statements: Record<'between' | 'insert' | 'update' | 'drop' | 'lengths' | 'totals', SqliteStatementLike>;

  constructor(
    database: SqliteDatabaseLike,
    readonly table: string,
    totalsTable: string,
  ) {
    this.statements = {
      between: database.prepare(`SELECT key, length, members FROM ${table} WHERE key BETWEEN ? AND ?`).raw(true),
      insert: database.prepare(`INSERT INTO ${table} (key, block, length, members) VALUES (?, ?, ?, ?)`),
      update: database.prepare(`UPDATE ${table} SET length = ?, members = ? WHERE key = ?`),
      drop: database.prepare(`DELETE FROM ${table} WHERE key = ?`),
      lengths: database.prepare(`SELECT w.key, w.length FROM json_each(?) AS j JOIN ${table} AS w ON w.key = j.value`).raw(true),
      totals: database.prepare(
        `INSERT INTO ${totalsTable} (block, documents, windows, window_length) VALUES (?, 0, ?, ?)
         ON CONFLICT(block) DO UPDATE SET windows = windows + excluded.windows, window_length = window_length + excluded.window_length`,
      ),
    };
  }

  /** The SQL that creates the table. */
  static schemaOf(table: string): string {
    return `CREATE TABLE IF NOT EXISTS ${table} (key INTEGER PRIMARY KEY, block INTEGER NOT NULL, length INTEGER NOT NULL, members INTEGER NOT NULL);`;
  }

  /**
   * Applies changes: windows are created on their first member and deleted with their last. The
   * current rows of each sequence's changed stretch are read with one range scan, so a batch of
   * appends costs a plain insert per new window rather than an upsert each.
   */
  apply(changes: readonly WindowChange[]): void {
    const stretches = new Map<number, { first: number; last: number }>();
    for (const { key } of changes) {
      const { sequence } = windowOfKey(key);
      const stretch = stretches.get(sequence);
      if (stretch === undefined) stretches.set(sequence, { first: key, last: key });
      else {
        stretch.first = Math.min(stretch.first, key);
        stretch.last = Math.max(stretch.last, key);
      }
    }
    const current = new Map<number, { length: number; members: number }>();
    for (const { first, last } of stretches.values()) {
      for (const [key, length, members] of this.statements.between.all(first, last) as Array<[number, number, number]>) current.set(key, { length, members });
    }
    const { rows, totals } = planWindowWrites(current, changes);
    for (const row of rows) {
      if (row.action === 'insert') this.statements.insert.run(row.key, row.block, row.length, row.members);
      else if (row.action === 'delete') this.statements.drop.run(row.key);
      else this.statements.update.run(row.length, row.members, row.key);
    }
    for (const [block, sums] of totals) this.statements.totals.run(block, sums.windows, sums.length);
  }

  /** The total length of each of these windows that exists. */
  lengthsOf(keys: readonly number[]): Map<number, number> {
    return new Map(this.statements.lengths.all(JSON.stringify(keys)) as Array<[number, number]>);
  }
}
