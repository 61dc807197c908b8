import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { checkSequencePosition, checkWindowShape, planWindowWrites, windowKeysCovering, windowOfKey, type SequencePosition, type WindowChange, type WindowShape } from './lexical-windows';
import { scoreDocuments, scoreWithWindows as scoreWindowed, type LexicalPosting, type LexicalRange, type LexicalTotals, type WindowedScores } from './windowed-bm25';

/**
 * A filter of an in-memory search: a document passes when, for every clause, it holds at least one
 * of the clause's tokens (an AND of ORs, the shape of a scope range).
 */
export type MemoryLexicalFilter = ReadonlyArray<readonly string[]>;

/** One document to index. */
export interface MemoryLexicalDocument<Field extends string> {
  readonly rowid: number;
  readonly block: number;
  /** The analysed tokens of each field. */
  readonly tokens: Readonly<Record<Field, readonly string[]>>;
  /** The tokens a filter matches (such as scope tokens); never scored. */
  readonly filterTokens?: readonly string[];
  /** Its place in a sequence, when the index has windows. */
  readonly sequence?: SequencePosition;
}

/** Options of {@link MemoryLexicalIndex}. */
export interface MemoryLexicalIndexOptions<Field extends string> {
  readonly fields: readonly Field[];
  readonly windows?: WindowShape<Field>;
}

/** What the index keeps of a document: enough to score it and to take it out again. */
interface StoredDocument {
  readonly block: number;
  readonly lengths: readonly number[];
  /** Its distinct terms of each field, joined by spaces (an analysed token holds none), to find its postings on delete. */
  readonly terms: readonly string[];
  readonly filterTokens: ReadonlySet<string> | undefined;
  readonly sequence: SequencePosition | undefined;
}

/** A growable list of (rowid, term frequency) pairs. Rowids fit a double exactly (below 2^53). */
interface PostingList {
  data: Float64Array;
  size: number;
}

/** A term's postings, by block, and the one string of the term every caller may share. */
interface TermPostings {
  readonly term: string;
  readonly blocks: Map<number, PostingList>;
}

interface BlockTotals {
  documents: number;
  lengths: number[];
  windows: number;
  windowLength: number;
}

/**
 * The in-memory lexical index: posting lists per block and term, corpus totals and neighbour
 * windows kept on write, scored by the same windowed BM25 as the SQLite and Postgres indexes
 * (`scoreWithWindows` of `@memplane/rules`), with the same blocks, rowid ranges and window keys. A
 * search reads the postings of its terms and the windows they fall in, never the other documents.
 */
export class MemoryLexicalIndex<Field extends string> {
  private readonly documents = new Map<number, StoredDocument>();
  /** By field, then term. */
  private readonly postings: Array<Map<string, TermPostings>>;
  private readonly blocks = new Map<number, BlockTotals>();
  /** Each window's total length and member count, by key. */
  private readonly windows = new Map<number, { length: number; members: number }>();
  /** The rowid at each place of each sequence. */
  private readonly places = new Map<number, Map<number, number>>();

  constructor(private readonly options: MemoryLexicalIndexOptions<Field>) {
    if (options.fields.length === 0) throw new MemoryConfigurationError({ message: 'the lexical index needs at least one field' });
    if (options.windows !== undefined) checkWindowShape(options.windows, options.fields);
    this.postings = options.fields.map(() => new Map());
  }

  /** Indexes documents under new rowids. A rowid already indexed is refused, and nothing is written. */
  insertMany(documents: ReadonlyArray<MemoryLexicalDocument<Field>>): void {
    const seen = new Set<number>();
    for (const { rowid, sequence } of documents) {
      if (!Number.isSafeInteger(rowid) || this.documents.has(rowid) || seen.has(rowid)) {
        throw new MemoryValidationError({ target: 'lexical document', issues: [{ path: 'rowid', message: `${rowid} is not a new safe integer` }] });
      }
      seen.add(rowid);
      if (sequence !== undefined) checkSequencePosition(sequence);
    }
    const { fields, windows: shape } = this.options;
    for (const { rowid, block, tokens, filterTokens, sequence } of documents) {
      const lengths = fields.map((field) => tokens[field].length);
      const terms = fields.map((field, index) => {
        const counts = new Map<string, number>();
        for (const token of tokens[field]) counts.set(token, (counts.get(token) ?? 0) + 1);
        const lists = this.postings[index] as Map<string, TermPostings>;
        for (const [term, frequency] of counts) append(lists, term, block, rowid, frequency);
        return [...counts.keys()].join(' ');
      });
      this.documents.set(rowid, { block, lengths, terms, filterTokens: filterTokens === undefined ? undefined : new Set(filterTokens), sequence });
      const totals = this.totalsOf(block);
      totals.documents += 1;
      lengths.forEach((length, index) => (totals.lengths[index] = (totals.lengths[index] as number) + length));
      const windowLength = shape === undefined ? 0 : (tokens[shape.field]?.length ?? 0);
      // A document without tokens in the windows' field lends nothing to its neighbours: it is no member.
      if (shape === undefined || sequence === undefined || windowLength === 0) continue;
      const places = this.places.get(sequence.id) ?? new Map<number, number>();
      this.places.set(sequence.id, places);
      places.set(sequence.position, rowid);
      this.applyWindows(windowKeysCovering(sequence.id, sequence.position, shape).map((key) => ({ key, block, length: windowLength, members: 1 })));
    }
  }

  /** Removes a document, and its share of its windows; a rowid the index does not hold is ignored. */
  delete(rowid: number): void {
    const document = this.documents.get(rowid);
    if (document === undefined) return;
    this.documents.delete(rowid);
    const { fields, windows: shape } = this.options;
    fields.forEach((_, index) => {
      const lists = this.postings[index] as Map<string, TermPostings>;
      const terms = document.terms[index] as string;
      if (terms === '') return;
      for (const term of terms.split(' ')) remove(lists, term, document.block, rowid);
    });
    const totals = this.totalsOf(document.block);
    totals.documents -= 1;
    document.lengths.forEach((length, index) => (totals.lengths[index] = (totals.lengths[index] as number) - length));
    const windowLength = shape === undefined ? 0 : (document.lengths[fields.indexOf(shape.field)] as number);
    const sequence = document.sequence;
    if (shape === undefined || sequence === undefined || windowLength === 0) return;
    this.places.get(sequence.id)?.delete(sequence.position);
    this.applyWindows(windowKeysCovering(sequence.id, sequence.position, shape).map((key) => ({ key, block: document.block, length: -windowLength, members: -1 })));
  }

  /**
   * The index's own string for a token, when a document holds it: a caller that keeps tokens (the
   * engine's rows) shares it instead of keeping a copy per document. Once the last document holding
   * a term is deleted, the index lets go of the string too.
   */
  canonical(token: string): string {
    for (const lists of this.postings) {
      const entry = lists.get(token);
      if (entry !== undefined) return entry.term;
    }
    return token;
  }

  /** Whether the index holds this rowid. */
  has(rowid: number): boolean {
    return this.documents.has(rowid);
  }

  /** How many documents a block holds, the total length of each field, and its windows' count and total length. */
  totals(block: number): { documents: number; lengths: Record<Field, number>; windows: number; windowLength: number } {
    const totals = this.blocks.get(block);
    return {
      documents: totals?.documents ?? 0,
      lengths: Object.fromEntries(this.options.fields.map((field, index) => [field, totals?.lengths[index] ?? 0])) as Record<Field, number>,
      windows: totals?.windows ?? 0,
      windowLength: totals?.windowLength ?? 0,
    };
  }

  /** The BM25 of `field` for each document of the ranges holding a query term and passing the filter (corpus: the ranges' blocks). */
  score(field: Field, queryTerms: readonly string[], ranges: readonly LexicalRange[], filter?: MemoryLexicalFilter): Map<number, number> {
    const totals = this.summed(ranges, field);
    if (totals.documents === 0 || totals.length === 0) return new Map();
    return scoreDocuments(totals, this.postingsOf(field, queryTerms, ranges, filter));
  }

  /** The documents' and windows' scores of a windowed search, as `SqliteLexicalIndex.scoreWithWindows` computes them. */
  scoreWithWindows(queryTerms: readonly string[], ranges: readonly LexicalRange[], filter?: MemoryLexicalFilter): WindowedScores {
    const shape = this.options.windows;
    if (shape === undefined) throw new MemoryConfigurationError({ message: 'the lexical index has no windows' });
    const totals = this.summed(ranges, shape.field);
    if (totals.documents === 0 || totals.length === 0) return { documents: new Map(), windows: new Map(), bestWindow: new Map() };
    const pending = scoreWindowed(totals, this.postingsOf(shape.field, queryTerms, ranges, filter), shape);
    const lengths = new Map<number, number>();
    for (const key of pending.keys) {
      const window = this.windows.get(key);
      if (window !== undefined) lengths.set(key, window.length);
    }
    return pending.finish(lengths);
  }

  /** The members of these windows (documents with tokens in the windows' field), as [window key, rowid] pairs. */
  windowMembers(keys: readonly number[]): Array<[number, number]> {
    const shape = this.options.windows;
    if (shape === undefined) throw new MemoryConfigurationError({ message: 'the lexical index has no windows' });
    const members: Array<[number, number]> = [];
    for (const key of keys) {
      const { sequence, start } = windowOfKey(key);
      const places = this.places.get(sequence);
      if (places === undefined) continue;
      for (let position = start; position < start + shape.size; position += 1) {
        const rowid = places.get(position);
        if (rowid !== undefined) members.push([key, rowid]);
      }
    }
    return members;
  }

  /** Applies window changes with the shared plan (`planWindowWrites`), and their share of the block totals. */
  private applyWindows(changes: readonly WindowChange[]): void {
    const { rows, totals } = planWindowWrites(this.windows, changes);
    for (const { action, key, length, members } of rows) {
      if (action === 'delete') this.windows.delete(key);
      else this.windows.set(key, { length, members });
    }
    for (const [block, change] of totals) {
      const sums = this.totalsOf(block);
      sums.windows += change.windows;
      sums.windowLength += change.length;
    }
  }

  private totalsOf(block: number): BlockTotals {
    let totals = this.blocks.get(block);
    if (totals === undefined) {
      totals = { documents: 0, lengths: this.options.fields.map(() => 0), windows: 0, windowLength: 0 };
      this.blocks.set(block, totals);
    }
    return totals;
  }

  private summed(ranges: readonly LexicalRange[], field: Field): LexicalTotals {
    const index = this.options.fields.indexOf(field);
    const sums = { documents: 0, length: 0, windows: 0, windowLength: 0 };
    for (const block of new Set(ranges.map((range) => range.block))) {
      const totals = this.blocks.get(block);
      if (totals === undefined) continue;
      sums.documents += totals.documents;
      sums.length += totals.lengths[index] as number;
      sums.windows += totals.windows;
      sums.windowLength += totals.windowLength;
    }
    return sums;
  }

  private postingsOf(field: Field, queryTerms: readonly string[], ranges: readonly LexicalRange[], filter: MemoryLexicalFilter | undefined): Map<string, LexicalPosting[]> {
    const index = this.options.fields.indexOf(field);
    const lists = this.postings[index] as Map<string, TermPostings>;
    const withPlace = field === this.options.windows?.field;
    const byTerm = new Map<string, LexicalPosting[]>();
    for (const term of new Set(queryTerms)) {
      const found: LexicalPosting[] = [];
      for (const { block, first, last } of ranges) {
        const list = lists.get(term)?.blocks.get(block);
        if (list === undefined) continue;
        for (let at = 0; at < list.size * 2; at += 2) {
          const rowid = list.data[at] as number;
          if (rowid < first || rowid > last) continue;
          const document = this.documents.get(rowid) as StoredDocument;
          const place = withPlace ? document.sequence : undefined;
          found.push({
            rowid,
            length: document.lengths[index] as number,
            frequency: list.data[at + 1] as number,
            sequence: place?.id ?? null,
            position: place?.position ?? null,
            passes: filter === undefined || passesFilter(document.filterTokens, filter),
          });
        }
      }
      if (found.length > 0) byTerm.set(term, found);
    }
    return byTerm;
  }
}

function passesFilter(tokens: ReadonlySet<string> | undefined, filter: MemoryLexicalFilter): boolean {
  return filter.every((clause) => tokens !== undefined && clause.some((token) => tokens.has(token)));
}

function append(lists: Map<string, TermPostings>, term: string, block: number, rowid: number, frequency: number): void {
  let entry = lists.get(term);
  if (entry === undefined) {
    entry = { term, blocks: new Map() };
    lists.set(term, entry);
  }
  let list = entry.blocks.get(block);
  if (list === undefined) {
    // Most terms are rare: a list starts with room for two postings.
    list = { data: new Float64Array(4), size: 0 };
    entry.blocks.set(block, list);
  } else if ((list.size + 1) * 2 > list.data.length) {
    const grown = new Float64Array(list.data.length * 2);
    grown.set(list.data);
    list.data = grown;
  }
  list.data[list.size * 2] = rowid;
  list.data[list.size * 2 + 1] = frequency;
  list.size += 1;
}

function remove(lists: Map<string, TermPostings>, term: string, block: number, rowid: number): void {
  const entry = lists.get(term);
  const list = entry?.blocks.get(block);
  if (entry === undefined || list === undefined) return;
  let kept = 0;
  for (let at = 0; at < list.size * 2; at += 2) {
    if (list.data[at] === rowid) continue;
    list.data[kept * 2] = list.data[at] as number;
    list.data[kept * 2 + 1] = list.data[at + 1] as number;
    kept += 1;
  }
  list.size = kept;
  if (kept > 0) return;
  entry.blocks.delete(block);
  if (entry.blocks.size === 0) lists.delete(term);
}
