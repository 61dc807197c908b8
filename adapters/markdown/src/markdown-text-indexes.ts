import type Database from 'better-sqlite3';
import { SqliteLexicalIndex } from '@memplane/rules/sqlite';
import { companyBlockSize } from './markdown-company-rowids';

/** Records per neighbour window: the engine's shape, tuned on the LoCoMo dev half (see BENCHMARKS.md). */
export const windowSize = 4;
/** Positions between the starts of two windows; windows overlap by `windowSize - windowStride`. */
export const windowStride = 2;

/** The full-text index of a markdown root's index database, on `@memplane/rules/sqlite`. */
export interface MarkdownTextIndexes {
  /**
   * Each searchable record: the analysed tokens of its text and summary (`body`) and of its
   * metadata's strings, with its file as its sequence, so the index scores overlapping windows of
   * neighbouring records from the records' own postings.
   */
  readonly records: SqliteLexicalIndex<'body' | 'metadata'>;
}

const cache = new WeakMap<Database.Database, MarkdownTextIndexes>();

/** The text index of an index database (its statements are prepared once per connection). */
export function textIndexesOf(database: Database.Database): MarkdownTextIndexes {
  let indexes = cache.get(database);
  if (indexes === undefined) {
    indexes = {
      records: new SqliteLexicalIndex(database, {
        name: 'records',
        fields: ['body', 'metadata'],
        filterColumn: 'scope',
        windows: { field: 'body', size: windowSize, stride: windowStride },
      }),
    };
    cache.set(database, indexes);
  }
  return indexes;
}

/** The company number of a rowid: its block, whose totals are the corpus statistics of a search. */
export function blockOf(rowid: number): number {
  return Math.floor(rowid / companyBlockSize);
}

/** The text of a record the body field indexes: its text, then its summary when it has one. */
export function searchableText(section: { text: string; summary?: string | undefined }): string {
  return section.summary === undefined ? section.text : `${section.text}\n${section.summary}`;
}
