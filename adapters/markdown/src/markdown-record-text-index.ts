import type Database from 'better-sqlite3';
import { SqliteLexicalIndex } from '@memplane/rules/sqlite';
import { companyBlockSize } from './markdown-company-rowids';

/** Records per neighbour window: the engine's shape, tuned on the LoCoMo dev half (see BENCHMARKS.md). */
const windowSize = 4;
/** Positions between the starts of two windows; windows overlap by `windowSize - windowStride`. */
const windowStride = 2;

/** The full-text index of a markdown root: each searchable record's analysed text and metadata, in its file's sequence. */
export type RecordTextIndex = SqliteLexicalIndex<'body' | 'metadata'>;

const cache = new WeakMap<Database.Database, RecordTextIndex>();

/**
 * The full-text index of an index database, on `@memplane/rules/sqlite` (its statements are
 * prepared once per connection): the analysed tokens of each searchable record's text and summary
 * (`body`) and of its metadata's strings, with its file as its sequence, so the index scores
 * overlapping windows of neighbouring records from the records' own postings.
 */
export function recordTextIndexOf(database: Database.Database): RecordTextIndex {
  let index = cache.get(database);
  if (index === undefined) {
    index = new SqliteLexicalIndex(database, {
      name: 'records',
      fields: ['body', 'metadata'],
      filterColumn: 'scope',
      windows: { field: 'body', size: windowSize, stride: windowStride },
    });
    cache.set(database, index);
  }
  return index;
}

/** The company number of a rowid: its block, whose totals are the corpus statistics of a search. */
export function blockOf(rowid: number): number {
  return Math.floor(rowid / companyBlockSize);
}

/** The text of a record the body field indexes: its text, then its summary when it has one. */
export function searchableText(section: { text: string; summary?: string | undefined }): string {
  return section.summary === undefined ? section.text : `${section.text}\n${section.summary}`;
}
