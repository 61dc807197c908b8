import type Database from 'better-sqlite3';
import { RowidAllocator } from './markdown-company-rowids';

/** Records per window. */
export const windowSize = 5;
/** Positions between the starts of two windows; windows overlap by `windowSize - windowStride`. */
export const windowStride = 3;

/** A record as a window sees it: its rowid and its searchable text ('' when query must not return it). */
export interface WindowRecord {
  /** The record's rowid. */
  rowid: number;
  /** Its text, or '' for a record query must not return. */
  text: string;
}

/**
 * Overlapping windows of consecutive records of a file, indexed as one text each. A dialog turn
 * is often found through its neighbours ("Where did she go?" is answered by the turn after it), so
 * a record's score adds the best score of a window that contains it. On the LoCoMo dev half this
 * took R@10 from 65.6 (records alone) to about 75; indexing each record's neighbours into its own
 * row did as well but cost four times the indexing time and five times the query time at 100k.
 */
export class WindowIndex {
  private readonly statements;

  constructor(private readonly database: Database.Database) {
    this.statements = {
      windowsFrom: database.prepare('SELECT rowid FROM windows WHERE file = ? AND start >= ?'),
      deleteFrom: database.prepare('DELETE FROM windows WHERE file = ? AND start >= ?'),
      deleteFts: database.prepare('DELETE FROM windows_fts WHERE rowid = ?'),
      insertWindow: database.prepare('INSERT INTO windows (rowid, file, start, members) VALUES (?, ?, ?, ?)'),
      insertFts: database.prepare('INSERT INTO windows_fts (rowid, scope, body) VALUES (?, ?, ?)'),
      textsBetween: database.prepare('SELECT rowid, position, searchable, section FROM records WHERE file = ? AND position >= ? AND position < ?'),
    };
  }

  /** Drops the windows of a file that start at or after `start`. */
  removeFrom(file: string, start: number): void {
    for (const row of this.statements.windowsFrom.all(file, start) as Array<{ rowid: number }>) this.statements.deleteFts.run(row.rowid);
    this.statements.deleteFrom.run(file, start);
  }

  /**
   * Re-creates the windows of a file from the first one that reaches `firstChanged`. `changed`
   * holds, for every record from `firstChanged` on, its rowid and its searchable text ('' for
   * records query must not return); the few records before it that those windows also cover are
   * read from the index. A window keeps the rowids of its searchable records (`members`), so a
   * query turns window hits into records without looking up files and positions. The windows take
   * their rowids from the block of `companyId`, the company of the file.
   */
  refresh(file: string, companyId: string, scopeTokens: string, firstChanged: number, changed: ReadonlyArray<WindowRecord>): void {
    const firstStart = Math.max(0, Math.ceil((firstChanged - windowSize + 1) / windowStride) * windowStride);
    this.removeFrom(file, firstStart);
    const records: WindowRecord[] = [];
    if (firstStart < firstChanged) {
      for (const row of this.statements.textsBetween.all(file, firstStart, firstChanged) as Array<{ rowid: number; position: number; searchable: number; section: string }>) {
        // Text of records that query must not return (pending, superseded) never lends its words to neighbours.
        records[row.position - firstStart] = { rowid: row.rowid, text: row.searchable === 1 ? (JSON.parse(row.section) as { text: string }).text : '' };
      }
    }
    changed.forEach((record, index) => {
      records[firstChanged - firstStart + index] = record;
    });
    const count = firstChanged + changed.length;
    const rowids = new RowidAllocator(this.database, 'windows');
    for (let start = firstStart; start < count; start += windowStride) {
      const members = records.slice(start - firstStart, start - firstStart + windowSize).filter((record) => record !== undefined && record.text !== '');
      if (members.length === 0) continue;
      const rowid = rowids.take(companyId);
      this.statements.insertWindow.run(rowid, file, start, members.map((record) => record.rowid).join(','));
      this.statements.insertFts.run(rowid, scopeTokens, members.map((record) => record.text).join('\n'));
    }
  }
}
