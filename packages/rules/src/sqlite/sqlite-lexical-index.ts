import { MemoryConfigurationError } from '@memplane/core';
import { scoreDocuments, scoreWithWindows as scoreWindowed, type LexicalPosting, type LexicalRange, type LexicalTotals, type WindowedScores } from '../windowed-bm25';
import { checkSequencePosition, checkWindowShape, windowKeysCovering, type SequencePosition, type WindowChange, type WindowShape } from '../lexical-windows';
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database-like';
import { SqliteWindowTable } from './sqlite-window-table';
import { encodeRepeats, frequencyIn } from './term-repeats';

/**
 * The FTS5 tokenizer for text the analyser already split: every letter, mark and digit is part of
 * a token and nothing is folded or stemmed again, so each analysed token is one index term.
 */
export const analysedTokenizer = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'";

/**
 * Pending full-text data FTS5 keeps in memory before writing a segment. The default of 1 MB makes
 * a rebuild write and merge hundreds of small segments; 16 MB took a 100k-record rebuild's
 * full-text work from 2.5 to 1.9 s.
 */
const hashBytes = 16 * 1024 * 1024;

/** Segments of one size FTS5 lets pile up before merging: 16 (the most) spent 30% less on writes of 100k records. */
const automerge = 16;

/** One document to index. */
export interface LexicalDocument<Field extends string> {
  /** Its rowid, in the range of its block. */
  readonly rowid: number;
  /** The block whose totals it counts in. */
  readonly block: number;
  /** The analysed tokens of each field. */
  readonly tokens: Readonly<Record<Field, readonly string[]>>;
  /** Its filter tokens, when the index has a filter column. */
  readonly filterTokens?: string;
  /** Its place in a sequence, when the index has windows; a document without one is in no window. */
  readonly sequence?: SequencePosition;
}

/** Options of {@link SqliteLexicalIndex}. */
export interface SqliteLexicalIndexOptions<Field extends string> {
  /** The tables' prefix: `<name>_fts`, `<name>_terms` and `<name>_totals`. Letters, digits and `_`. */
  readonly name: string;
  /** The scored fields, each a column of analysed tokens. */
  readonly fields: readonly Field[];
  /** The name of a column of filter tokens (such as scope tokens), matched with AND and never scored. */
  readonly filterColumn?: string;
  /** Neighbour windows over the documents' sequences, scored from the members' postings. */
  readonly windows?: WindowShape<Field>;
}

/**
 * A full-text index on SQLite's own FTS5, fed the analyser's tokens, with BM25 scored exactly from
 * the postings of the query's terms. FTS5's `bm25()` is not used: its corpus is the whole table
 * (every company) and it clamps the idf of a term in half the rows or more to 1e-6. Here the corpus
 * of a search is its block (kept on write in `<name>_totals`), the idf is `@memplane/rules`', and a
 * search reads, per query term, the term's postings inside the range and the length and repeats of
 * each document holding it (`<name>_terms`), never the other documents of the range. The scores
 * come from `@memplane/rules`' windowed BM25, which every memplane index feeds.
 */
export class SqliteLexicalIndex<Field extends string> {
  private readonly statements = new Map<string, SqliteStatementLike>();
  private readonly tables: { fts: string; terms: string; totals: string; windows: string };
  private windowTable: SqliteWindowTable | undefined;
  /** By field: the term's postings in a rowid range, with each document's length and repeats (and place, with windows). */
  private readonly postingsSql: ReadonlyMap<Field, string>;
  /** The statements' SQL, built once: writes run once per document. */
  private readonly sql: Record<'insertText' | 'insertTerms' | 'documentOf' | 'deleteText' | 'deleteTerms' | 'addToTotals' | 'totals' | 'matching' | 'members', string>;

  constructor(
    private readonly database: SqliteDatabaseLike,
    private readonly options: SqliteLexicalIndexOptions<Field>,
  ) {
    const names = [options.name, ...options.fields, ...(options.filterColumn === undefined ? [] : [options.filterColumn])];
    const unsafe = names.find((name) => !/^[a-z][a-z0-9_]*$/.test(name));
    if (unsafe !== undefined) throw new MemoryConfigurationError({ message: `the lexical index name or column ${JSON.stringify(unsafe)} is not a plain SQL identifier (a-z, 0-9, _)` });
    const windows = options.windows;
    if (windows !== undefined) checkWindowShape(windows, options.fields);
    const tables = { fts: `${options.name}_fts`, terms: `${options.name}_terms`, totals: `${options.name}_totals`, windows: `${options.name}_windows` };
    this.tables = tables;
    const fields = options.fields;
    const lengths = fields.map((field) => `${field}_length`).join(', ');
    const sequenceColumns = windows === undefined ? '' : ', sequence, position';
    const textColumns = [...(options.filterColumn === undefined ? [] : [options.filterColumn]), ...fields];
    this.postingsSql = new Map(
      fields.map((field) => [
        field,
        `SELECT t.rowid, t.${field}_length, t.${field}_repeats${field === windows?.field ? ', t.sequence, t.position' : ''}
         FROM ${tables.fts} AS f JOIN ${tables.terms} AS t ON t.rowid = f.rowid WHERE ${tables.fts} MATCH ? AND f.rowid BETWEEN ? AND ?`,
      ]),
    );
    this.sql = {
      insertText: `INSERT INTO ${tables.fts} (rowid, ${textColumns.join(', ')}) VALUES (?, ${textColumns.map(() => '?').join(', ')})`,
      insertTerms: `INSERT INTO ${tables.terms} (rowid, block, ${fields.map((field) => `${field}_length, ${field}_repeats`).join(', ')}${sequenceColumns})
        VALUES (?, ?, ${fields.map(() => '?, ?').join(', ')}${windows === undefined ? '' : ', ?, ?'})`,
      deleteText: `DELETE FROM ${tables.fts} WHERE rowid = ?`,
      deleteTerms: `DELETE FROM ${tables.terms} WHERE rowid = ?`,
      documentOf: `SELECT block, ${lengths}${sequenceColumns} FROM ${tables.terms} WHERE rowid = ?`,
      addToTotals: `INSERT INTO ${tables.totals} (block, documents, ${lengths}) VALUES (?, ?, ${fields.map(() => '?').join(', ')})
        ON CONFLICT(block) DO UPDATE SET documents = documents + excluded.documents, ${fields.map((field) => `${field}_length = ${field}_length + excluded.${field}_length`).join(', ')}`,
      totals: `SELECT documents, ${lengths}, windows, window_length FROM ${tables.totals} WHERE block = ?`,
      matching: `SELECT rowid FROM ${tables.fts} WHERE ${tables.fts} MATCH ? AND rowid BETWEEN ? AND ?`,
      // A window's members are found through the (sequence, position) index, never by a scan.
      members: `SELECT j.value, t.rowid FROM json_each(?) AS j JOIN ${tables.terms} AS t
        ON t.sequence = j.value / 4294967296 AND t.position BETWEEN j.value % 4294967296 AND j.value % 4294967296 + ${(windows?.size ?? 1) - 1}
        WHERE t.${windows?.field ?? fields[0]}_length > 0`,
    };
  }

  /**
   * Creates the tables when they are missing. The full-text table keeps columns but no positions
   * (`detail = column`): searches never ask for phrases, and without positions it is smaller and
   * faster to write.
   */
  create(): void {
    const { fts, terms, totals, windows } = this.tables;
    const fields = this.options.fields;
    const columns = [...(this.options.filterColumn === undefined ? [] : [this.options.filterColumn]), ...fields];
    const withWindows = this.options.windows !== undefined;
    this.database.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(${columns.join(', ')}, tokenize = "${analysedTokenizer}", content = '', contentless_delete = 1, detail = column);
      CREATE TABLE IF NOT EXISTS ${terms} (rowid INTEGER PRIMARY KEY, block INTEGER NOT NULL, ${fields.map((field) => `${field}_length INTEGER NOT NULL, ${field}_repeats TEXT`).join(', ')}${withWindows ? ', sequence INTEGER, position INTEGER' : ''});
      CREATE TABLE IF NOT EXISTS ${totals} (block INTEGER PRIMARY KEY, documents INTEGER NOT NULL DEFAULT 0, ${fields.map((field) => `${field}_length INTEGER NOT NULL DEFAULT 0`).join(', ')}, windows INTEGER NOT NULL DEFAULT 0, window_length INTEGER NOT NULL DEFAULT 0);
      ${withWindows ? `CREATE INDEX IF NOT EXISTS ${terms}_sequence ON ${terms}(sequence, position) WHERE sequence IS NOT NULL; ${SqliteWindowTable.schemaOf(windows)}` : ''}
      INSERT INTO ${fts} (${fts}, rank) VALUES ('hashsize', ${hashBytes});
      INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', ${automerge});
    `);
  }

  /** Drops the tables. */
  drop(): void {
    this.statements.clear();
    this.windowTable = undefined;
    this.database.exec(Object.values(this.tables).map((table) => `DROP TABLE IF EXISTS ${table};`).join('\n'));
  }

  /** Indexes a document under a new rowid of `block`. */
  insert(rowid: number, block: number, tokens: Readonly<Record<Field, readonly string[]>>, filterTokens = '', sequence?: SequencePosition): void {
    this.insertMany([{ rowid, block, tokens, filterTokens, ...(sequence === undefined ? {} : { sequence }) }]);
  }

  /**
   * Indexes documents under new rowids; the totals of each block, and each window the documents
   * join, are updated once for all of them.
   */
  insertMany(documents: ReadonlyArray<LexicalDocument<Field>>): void {
    const fields = this.options.fields;
    const windows = this.options.windows;
    const insertText = this.statement(this.sql.insertText);
    const insertTerms = this.statement(this.sql.insertTerms);
    const added = new Map<number, number[]>();
    const joined = new Map<number, WindowChange>();
    for (const { rowid, block, tokens, filterTokens = '', sequence } of documents) {
      if (sequence !== undefined) checkSequencePosition(sequence);
      const texts = fields.map((field) => tokens[field].join(' '));
      if (this.options.filterColumn === undefined) insertText.run(rowid, ...texts);
      else insertText.run(rowid, filterTokens, ...texts);
      const counts = fields.flatMap((field) => [tokens[field].length, encodeRepeats(tokens[field])]);
      if (windows === undefined) insertTerms.run(rowid, block, ...counts);
      else insertTerms.run(rowid, block, ...counts, sequence?.id ?? null, sequence?.position ?? null);
      const sums = added.get(block) ?? new Array<number>(fields.length + 1).fill(0);
      sums[0] = (sums[0] as number) + 1;
      fields.forEach((field, index) => (sums[index + 1] = (sums[index + 1] as number) + tokens[field].length));
      added.set(block, sums);
      const length = windows === undefined ? 0 : tokens[windows.field].length;
      // A document without tokens in the windows' field lends nothing to its neighbours: it is no member.
      if (windows === undefined || sequence === undefined || length === 0) continue;
      for (const key of windowKeysCovering(sequence.id, sequence.position, windows)) {
        const change = joined.get(key);
        joined.set(key, { key, block, length: (change?.length ?? 0) + length, members: (change?.members ?? 0) + 1 });
      }
    }
    for (const [block, sums] of added) this.statement(this.sql.addToTotals).run(block, ...sums);
    if (joined.size > 0) this.windowsOf().apply([...joined.values()]);
  }

  /** Removes a document, and its share of its windows; a rowid the index does not hold is ignored. */
  delete(rowid: number): void {
    const row = this.statement(this.sql.documentOf).get(rowid) as Record<string, number | null> | undefined;
    if (row === undefined) return;
    const block = row.block as number;
    this.statement(this.sql.deleteText).run(rowid);
    this.statement(this.sql.deleteTerms).run(rowid);
    this.statement(this.sql.addToTotals).run(block, -1, ...this.options.fields.map((field) => -(row[`${field}_length`] as number)));
    const windows = this.options.windows;
    const length = windows === undefined ? 0 : (row[`${windows.field}_length`] as number);
    if (windows === undefined || row.sequence === null || row.sequence === undefined || length === 0) return;
    const keys = windowKeysCovering(row.sequence, row.position as number, windows);
    this.windowsOf().apply(keys.map((key) => ({ key, block, length: -length, members: -1 })));
  }

  /** How many documents a block holds, the total length of each field, and its windows' count and total length. */
  totals(block: number): { documents: number; lengths: Record<Field, number>; windows: number; windowLength: number } {
    const fields = this.options.fields;
    const row = this.statement(this.sql.totals).get(block) as Record<string, number> | undefined;
    return {
      documents: row?.documents ?? 0,
      lengths: Object.fromEntries(fields.map((field) => [field, row?.[`${field}_length`] ?? 0])) as Record<Field, number>,
      windows: row?.windows ?? 0,
      windowLength: row?.window_length ?? 0,
    };
  }

  /**
   * The BM25 of `field` for each document of the ranges that holds a query term and matches the
   * filter expression (FTS5 syntax over the filter column, such as `scope : (a AND b)`). The
   * corpus is the ranges' blocks: the document frequency of a term is counted in the ranges without
   * the filter, so a scope's scores do not depend on which scope asked.
   */
  score(field: Field, queryTerms: readonly string[], range: LexicalRange | readonly LexicalRange[], filter?: string): Map<number, number> {
    const ranges = rangesOf(range);
    const totals = this.totalsOf(ranges, field);
    // A field no document of the blocks has text in (metadata, often) costs no lookup.
    if (totals.documents === 0 || totals.length === 0) return new Map();
    return scoreDocuments(totals, this.postingsOf(field, queryTerms, ranges, filter));
  }

  /**
   * Scores the windows' field (as {@link score} does) and the neighbour windows, from one read of
   * each query term's postings (`scoreWithWindows` of `@memplane/rules`). A window's term
   * frequency and length are its members' sums and its corpus is the blocks' windows (counted on
   * write), so the scores equal BM25 over the windows' concatenated texts. Like the documents'
   * statistics, a window's document frequency is counted without the filter; a window is returned
   * when a member passing the filter holds a query term.
   */
  scoreWithWindows(queryTerms: readonly string[], range: LexicalRange | readonly LexicalRange[], filter?: string): WindowedScores {
    const shape = this.options.windows;
    if (shape === undefined) throw new MemoryConfigurationError({ message: `the lexical index ${this.options.name} has no windows` });
    const ranges = rangesOf(range);
    const totals = this.totalsOf(ranges, shape.field);
    if (totals.documents === 0 || totals.length === 0) return { documents: new Map(), windows: new Map(), bestWindow: new Map() };
    const pending = scoreWindowed(totals, this.postingsOf(shape.field, queryTerms, ranges, filter), shape);
    return pending.finish(pending.keys.length === 0 ? new Map() : this.windowsOf().lengthsOf(pending.keys));
  }

  /** The summed totals of the ranges' blocks, for one field. */
  private totalsOf(ranges: readonly LexicalRange[], field: Field): LexicalTotals {
    const sums = { documents: 0, length: 0, windows: 0, windowLength: 0 };
    for (const block of new Set(ranges.map((range) => range.block))) {
      const totals = this.totals(block);
      sums.documents += totals.documents;
      sums.length += totals.lengths[field];
      sums.windows += totals.windows;
      sums.windowLength += totals.windowLength;
    }
    return sums;
  }

  /** Each query term's postings in the ranges, each marked whether it passes the filter. */
  private postingsOf(field: Field, queryTerms: readonly string[], ranges: readonly LexicalRange[], filter: string | undefined): Map<string, LexicalPosting[]> {
    const withPlace = field === this.options.windows?.field;
    const postings = this.statement(this.postingsSql.get(field) as string, { raw: true });
    const matching = this.statement(this.sql.matching, { raw: true });
    const byTerm = new Map<string, LexicalPosting[]>();
    for (const term of new Set(queryTerms)) {
      const phrase = phraseOf(field, term);
      const found: LexicalPosting[] = [];
      for (const { first, last } of ranges) {
        const rows = postings.all(phrase, first, last) as Array<[number, number, string | null, number | null, number | null]>;
        if (rows.length === 0) continue;
        const passing = filter === undefined ? undefined : new Set((matching.all(`(${filter}) AND ${phrase}`, first, last) as Array<[number]>).map(([rowid]) => rowid));
        for (const [rowid, length, repeats, sequence, position] of rows) {
          found.push({ rowid, length, frequency: frequencyIn(repeats, term), sequence: withPlace ? (sequence ?? null) : null, position: withPlace ? (position ?? null) : null, passes: passing === undefined || passing.has(rowid) });
        }
      }
      if (found.length > 0) byTerm.set(term, found);
    }
    return byTerm;
  }

  /** The members of these windows (documents with tokens in the windows' field), as [window key, rowid] pairs. */
  windowMembers(keys: readonly number[]): Array<[number, number]> {
    if (this.options.windows === undefined) throw new MemoryConfigurationError({ message: `the lexical index ${this.options.name} has no windows` });
    if (keys.length === 0) return [];
    return this.statement(this.sql.members, { raw: true }).all(JSON.stringify(keys)) as Array<[number, number]>;
  }

  /**
   * Merges the full-text index into one segment. A deleted row of a contentless table leaves a
   * tombstone, and its terms stay in old segments until a merge: this drops them (with
   * `secure_delete` on, the freed pages are zeroed).
   */
  optimize(): void {
    this.database.exec(`INSERT INTO ${this.tables.fts} (${this.tables.fts}) VALUES ('optimize');`);
  }

  /** The window table, whose statements are prepared on first use (after `create`). */
  private windowsOf(): SqliteWindowTable {
    this.windowTable ??= new SqliteWindowTable(this.database, this.tables.windows, this.tables.totals);
    return this.windowTable;
  }

  /** The prepared statement of `sql`, prepared once; a SQL text is always read the same way (`raw` or not). */
  private statement(sql: string, options: { raw?: boolean } = {}): SqliteStatementLike {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = options.raw === true ? this.database.prepare(sql).raw(true) : this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** One range or several, as a list. */
function rangesOf(range: LexicalRange | readonly LexicalRange[]): readonly LexicalRange[] {
  return Array.isArray(range) ? range : [range as LexicalRange];
}

/** The FTS5 expression of one term in one column; the term is quoted, so it is never read as an operator. */
function phraseOf(field: string, term: string): string {
  return `${field} : "${term.replace(/"/g, '""')}"`;
}
