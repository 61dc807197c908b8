import type Database from 'better-sqlite3';
import { RowidAllocator } from './markdown-company-rowids';

/** Records per window. */
export const windowSize = 5;
/** Positions between the starts of two windows; windows overlap by `windowSize - windowStride`. */
export const windowStride = 3;

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
      insertWindow: database.prepare('INSERT INTO windows (rowid, file, start) VALUES (?, ?, ?)'),
      insertFts: database.prepare('INSERT INTO windows_fts (rowid, scope, body) VALUES (?, ?, ?)'),
      textsBetween: database.prepare('SELECT position, searchable, section FROM records WHERE file = ? AND position >= ? AND position < ?'),
    };
  }

  /** Drops the windows of a file that start at or after `start`. */
  removeFrom(file: string, start: number): void {
    for (const row of this.statements.windowsFrom.all(file, start) as Array<{ rowid: number }>) this.statements.deleteFts.run(row.rowid);
    this.statements.deleteFrom.run(file, start);
  }

  /**
   * Re-creates the windows of a file from the first one that reaches `firstChanged`. `changed`
   * holds the searchable text (or '' for records query must not return) of every record from
   * `firstChanged` on; the few records before it that those windows also cover are read from the index.
   * The windows take their rowids from the block of `companyId`, the company of the file.
   */
  refresh(file: string, companyId: string, scopeTokens: string, firstChanged: number, changed: ReadonlyArray<string>): void {
    const firstStart = Math.max(0, Math.ceil((firstChanged - windowSize + 1) / windowStride) * windowStride);
    this.removeFrom(file, firstStart);
    const texts: string[] = [];
    if (firstStart < firstChanged) {
      for (const row of this.statements.textsBetween.all(file, firstStart, firstChanged) as Array<{ position: number; searchable: number; section: string }>) {
        // Text of records that query must not return (pending, superseded) never lends its words to neighbours.
        texts[row.position - firstStart] = row.searchable === 1 ? (JSON.parse(row.section) as { text: string }).text : '';
      }
    }
    changed.forEach((text, index) => {
      texts[firstChanged - firstStart + index] = text;
    });
    const count = firstChanged + changed.length;
    const rowids = new RowidAllocator(this.database, 'windows');
    for (let start = firstStart; start < count; start += windowStride) {
      const body = texts.slice(start - firstStart, start - firstStart + windowSize).filter((text) => text !== undefined && text !== '').join('\n');
      if (body === '') continue;
      const rowid = rowids.take(companyId);
      this.statements.insertWindow.run(rowid, file, start);
      this.statements.insertFts.run(rowid, scopeTokens, body);
    }
  }
}
