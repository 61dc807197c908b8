import { MemoryConfigurationError } from '@memplane/core';
import { averageLengthOf, bm25TermScore, inverseDocumentFrequency } from '../bm25';
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database-like';
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

/** Where a search looks: a block (a company, say) and the rowid range that holds it. */
export interface LexicalRange {
  /** The block whose totals are the corpus statistics. */
  readonly block: number;
  readonly first: number;
  readonly last: number;
}

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
}

/** Options of {@link SqliteLexicalIndex}. */
export interface SqliteLexicalIndexOptions<Field extends string> {
  /** The tables' prefix: `<name>_fts`, `<name>_terms` and `<name>_totals`. Letters, digits and `_`. */
  readonly name: string;
  /** The scored fields, each a column of analysed tokens. */
  readonly fields: readonly Field[];
  /** The name of a column of filter tokens (such as scope tokens), matched with AND and never scored. */
  readonly filterColumn?: string;
}

/**
 * A full-text index on SQLite's own FTS5, fed the analyser's tokens, with BM25 scored exactly from
 * the postings of the query's terms. FTS5's `bm25()` is not used: its corpus is the whole table
 * (every company) and it clamps the idf of a term in half the rows or more to 1e-6. Here the corpus
 * of a search is its block (kept on write in `<name>_totals`), the idf is `@memplane/rules`', and a
 * search reads, per query term, the term's postings inside the range and the length and repeats of
 * each document holding it (`<name>_terms`), never the other documents of the range.
 */
export class SqliteLexicalIndex<Field extends string> {
  private readonly statements = new Map<string, SqliteStatementLike>();
  private readonly tables: { fts: string; terms: string; totals: string };
  /** The statements' SQL, built once: writes run once per document. */
  /** By field: the term's postings in a rowid range, with each document's length and repeats. */
  private readonly postingsSql: ReadonlyMap<Field, string>;
  private readonly sql: Record<'insertText' | 'insertTerms' | 'documentOf' | 'deleteText' | 'deleteTerms' | 'addToTotals' | 'totals' | 'count', string>;

  constructor(
    private readonly database: SqliteDatabaseLike,
    private readonly options: SqliteLexicalIndexOptions<Field>,
  ) {
    const names = [options.name, ...options.fields, ...(options.filterColumn === undefined ? [] : [options.filterColumn])];
    const unsafe = names.find((name) => !/^[a-z][a-z0-9_]*$/.test(name));
    if (unsafe !== undefined) throw new MemoryConfigurationError({ message: `the lexical index name or column ${JSON.stringify(unsafe)} is not a plain SQL identifier (a-z, 0-9, _)` });
    const tables = { fts: `${options.name}_fts`, terms: `${options.name}_terms`, totals: `${options.name}_totals` };
    this.tables = tables;
    const fields = options.fields;
    const lengths = fields.map((field) => `${field}_length`).join(', ');
    const textColumns = [...(options.filterColumn === undefined ? [] : [options.filterColumn]), ...fields];
    this.postingsSql = new Map(
      fields.map((field) => [
        field,
        `SELECT t.rowid, t.${field}_length, t.${field}_repeats FROM ${tables.fts} AS f JOIN ${tables.terms} AS t ON t.rowid = f.rowid WHERE ${tables.fts} MATCH ? AND f.rowid BETWEEN ? AND ?`,
      ]),
    );
    this.sql = {
      insertText: `INSERT INTO ${tables.fts} (rowid, ${textColumns.join(', ')}) VALUES (?, ${textColumns.map(() => '?').join(', ')})`,
      insertTerms: `INSERT INTO ${tables.terms} (rowid, block, ${fields.map((field) => `${field}_length, ${field}_repeats`).join(', ')}) VALUES (?, ?, ${fields.map(() => '?, ?').join(', ')})`,
      deleteText: `DELETE FROM ${tables.fts} WHERE rowid = ?`,
      deleteTerms: `DELETE FROM ${tables.terms} WHERE rowid = ?`,
      documentOf: `SELECT block, ${lengths} FROM ${tables.terms} WHERE rowid = ?`,
      addToTotals: `INSERT INTO ${tables.totals} (block, documents, ${lengths}) VALUES (?, ?, ${fields.map(() => '?').join(', ')})
        ON CONFLICT(block) DO UPDATE SET documents = documents + excluded.documents, ${fields.map((field) => `${field}_length = ${field}_length + excluded.${field}_length`).join(', ')}`,
      totals: `SELECT documents, ${lengths} FROM ${tables.totals} WHERE block = ?`,
      count: `SELECT count(*) AS count FROM ${tables.fts} WHERE ${tables.fts} MATCH ? AND rowid BETWEEN ? AND ?`,
    };
  }

  /**
   * Creates the tables when they are missing. The full-text table keeps columns but no positions
   * (`detail = column`): searches never ask for phrases, and without positions it is smaller and
   * faster to write.
   */
  create(): void {
    const { fts, terms, totals } = this.tables;
    const fields = this.options.fields;
    const columns = [...(this.options.filterColumn === undefined ? [] : [this.options.filterColumn]), ...fields];
    this.database.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(${columns.join(', ')}, tokenize = "${analysedTokenizer}", content = '', contentless_delete = 1, detail = column);
      CREATE TABLE IF NOT EXISTS ${terms} (rowid INTEGER PRIMARY KEY, block INTEGER NOT NULL, ${fields.map((field) => `${field}_length INTEGER NOT NULL, ${field}_repeats TEXT`).join(', ')});
      CREATE TABLE IF NOT EXISTS ${totals} (block INTEGER PRIMARY KEY, documents INTEGER NOT NULL, ${fields.map((field) => `${field}_length INTEGER NOT NULL`).join(', ')});
      INSERT INTO ${fts} (${fts}, rank) VALUES ('hashsize', ${hashBytes});
      INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', ${automerge});
    `);
  }

  /** Drops the tables. */
  drop(): void {
    this.statements.clear();
    this.database.exec(Object.values(this.tables).map((table) => `DROP TABLE IF EXISTS ${table};`).join('\n'));
  }

  /** Indexes a document under a new rowid of `block`. */
  insert(rowid: number, block: number, tokens: Readonly<Record<Field, readonly string[]>>, filterTokens = ''): void {
    this.insertMany([{ rowid, block, tokens, filterTokens }]);
  }

  /** Indexes documents under new rowids; the totals of each block are updated once for all of them. */
  insertMany(documents: ReadonlyArray<LexicalDocument<Field>>): void {
    const fields = this.options.fields;
    const insertText = this.statement(this.sql.insertText);
    const insertTerms = this.statement(this.sql.insertTerms);
    const added = new Map<number, number[]>();
    for (const { rowid, block, tokens, filterTokens = '' } of documents) {
      const texts = fields.map((field) => tokens[field].join(' '));
      if (this.options.filterColumn === undefined) insertText.run(rowid, ...texts);
      else insertText.run(rowid, filterTokens, ...texts);
      insertTerms.run(rowid, block, ...fields.flatMap((field) => [tokens[field].length, encodeRepeats(tokens[field])]));
      const sums = added.get(block) ?? new Array<number>(fields.length + 1).fill(0);
      sums[0] = (sums[0] as number) + 1;
      fields.forEach((field, index) => (sums[index + 1] = (sums[index + 1] as number) + tokens[field].length));
      added.set(block, sums);
    }
    for (const [block, sums] of added) this.statement(this.sql.addToTotals).run(block, ...sums);
  }

  /** Removes a document; a rowid the index does not hold is ignored. */
  delete(rowid: number): void {
    const row = this.statement(this.sql.documentOf).get(rowid) as Record<string, number> | undefined;
    if (row === undefined) return;
    this.statement(this.sql.deleteText).run(rowid);
    this.statement(this.sql.deleteTerms).run(rowid);
    this.statement(this.sql.addToTotals).run(row.block as number, -1, ...this.options.fields.map((field) => -(row[`${field}_length`] as number)));
  }

  /** How many documents a block holds, and the total length of each field. */
  totals(block: number): { documents: number; lengths: Record<Field, number> } {
    const fields = this.options.fields;
    const row = this.statement(this.sql.totals).get(block) as Record<string, number> | undefined;
    return {
      documents: row?.documents ?? 0,
      lengths: Object.fromEntries(fields.map((field) => [field, row?.[`${field}_length`] ?? 0])) as Record<Field, number>,
    };
  }

  /**
   * The BM25 of `field` for each document of the range that holds a query term and matches the
   * filter expression (FTS5 syntax over the filter column, such as `scope : (a AND b)`). The
   * corpus is the whole block: the document frequency of a term is counted in the range without
   * the filter, so a scope's scores do not depend on which scope asked.
   */
  score(field: Field, queryTerms: readonly string[], range: LexicalRange, filter?: string): Map<number, number> {
    const scores = new Map<number, number>();
    const totals = this.totals(range.block);
    // A field no document of the block has text in (metadata, often) costs no lookup.
    if (totals.documents === 0 || totals.lengths[field] === 0) return scores;
    const averageLength = averageLengthOf({ documents: totals.documents, totalLength: totals.lengths[field] });
    // Postings are read by the thousand: as arrays, not objects.
    const postings = this.statement(this.postingsSql.get(field) as string, { raw: true });
    const count = this.statement(this.sql.count);
    for (const term of new Set(queryTerms)) {
      const phrase = `${field} : "${term.replace(/"/g, '""')}"`;
      const rows = postings.all(filter === undefined ? phrase : `(${filter}) AND ${phrase}`, range.first, range.last) as Array<[number, number, string | null]>;
      if (rows.length === 0) continue;
      const containing = filter === undefined ? rows.length : (count.get(phrase, range.first, range.last) as { count: number }).count;
      const idf = inverseDocumentFrequency(totals.documents, containing);
      for (const [rowid, length, repeats] of rows) scores.set(rowid, (scores.get(rowid) ?? 0) + bm25TermScore(idf, frequencyIn(repeats, term), length, averageLength));
    }
    return scores;
  }

  /**
   * Merges the full-text index into one segment. A deleted row of a contentless table leaves a
   * tombstone, and its terms stay in old segments until a merge: this drops them (with
   * `secure_delete` on, the freed pages are zeroed).
   */
  optimize(): void {
    this.database.exec(`INSERT INTO ${this.tables.fts} (${this.tables.fts}) VALUES ('optimize');`);
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
