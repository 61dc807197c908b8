import { averageLengthOf, bm25TermScore, inverseDocumentFrequency } from './bm25';
import { windowKeysCovering } from './lexical-windows';

/**
 * BM25 with neighbour windows, computed from what any index can read: the corpus totals, each
 * query term's postings and the lengths of the windows found. Every lexical index of memplane (FTS5
 * on SQLite, the posting lists in memory, the term table on Postgres) reads those and hands them
 * here, so the scores are the same doubles whatever the backend.
 */

/** Where a search looks: a block (a company, say), whose totals are the corpus statistics, and the rowid range that holds it. */
export interface LexicalRange {
  readonly block: number;
  readonly first: number;
  readonly last: number;
}

/** The corpus statistics of a search, kept on write by the index. */
export interface LexicalTotals {
  /** Documents in the searched blocks. */
  readonly documents: number;
  /** The sum of their lengths in the scored field. */
  readonly length: number;
  /** Windows (with at least one member) in the searched blocks. */
  readonly windows: number;
  /** The sum of the windows' lengths (a member counts once per window holding it). */
  readonly windowLength: number;
}

/** One document holding a query term, in the searched blocks. */
export interface LexicalPosting {
  readonly rowid: number;
  /** Its length in the scored field. */
  readonly length: number;
  /** How often it holds the term, at least 1. */
  readonly frequency: number;
  /** Its place in a sequence, or null when it is in no window. */
  readonly sequence: number | null;
  readonly position: number | null;
  /** Whether it passes the search's filter. Documents that do not still count in the statistics and in their windows. */
  readonly passes: boolean;
}

/** The scores of a windowed search. */
export interface WindowedScores {
  /** The BM25 of each document that holds a query term and passes the filter. */
  readonly documents: Map<number, number>;
  /**
   * The BM25 of each window (by key) that holds a query term in a document passing the filter. The
   * corpus is the searched blocks' windows: a window's length and term frequencies are its members' sums.
   */
  readonly windows: Map<number, number>;
  /** For each document of `documents` in a sequence, the best score of a window holding it. */
  readonly bestWindow: Map<number, number>;
}

/**
 * The BM25 of each document passing the filter that holds a query term. The document frequency
 * of a term counts every posting, filtered or not, so a narrower filter never changes a score.
 */
export function scoreDocuments(totals: Pick<LexicalTotals, 'documents' | 'length'>, postings: ReadonlyMap<string, readonly LexicalPosting[]>): Map<number, number> {
  const scores = new Map<number, number>();
  if (totals.documents === 0 || totals.length === 0) return scores;
  const averageLength = averageLengthOf({ documents: totals.documents, totalLength: totals.length });
  for (const rows of postings.values()) {
    if (rows.length === 0) continue;
    const idf = inverseDocumentFrequency(totals.documents, rows.length);
    for (const { rowid, length, frequency, passes } of rows) if (passes) scores.set(rowid, (scores.get(rowid) ?? 0) + bm25TermScore(idf, frequency, length, averageLength));
  }
  return scores;
}

/** A windowed search half done: the windows whose lengths the index must read, then {@link PendingWindows.finish}. */
export interface PendingWindows {
  /** The keys of the windows that hold a query term in a document passing the filter. */
  readonly keys: readonly number[];
  /** The scores, given the stored length of each window of `keys` (a window absent from the map is skipped). */
  finish(lengths: ReadonlyMap<number, number>): WindowedScores;
}

/**
 * Scores the documents and gathers the windows of a windowed search from the query terms'
 * postings. A window's term frequency is the sum of its members' (filtered or not), its document
 * frequency counts the windows holding the term, and it is scored when a member passing the filter
 * holds a query term. `postings` maps each distinct query term to its postings.
 */
export function scoreWithWindows(totals: LexicalTotals, postings: ReadonlyMap<string, readonly LexicalPosting[]>, shape: { size: number; stride: number }): PendingWindows {
  const documents = new Map<number, number>();
  const empty: PendingWindows = { keys: [], finish: () => ({ documents, windows: new Map(), bestWindow: new Map() }) };
  if (totals.documents === 0 || totals.length === 0) return empty;
  const averageLength = averageLengthOf({ documents: totals.documents, totalLength: totals.length });
  const perTerm: Array<{ idf: number; frequencies: Map<number, number> }> = [];
  const placed = new Map<number, readonly number[]>();
  for (const rows of postings.values()) {
    if (rows.length === 0) continue;
    const idf = inverseDocumentFrequency(totals.documents, rows.length);
    const frequencies = new Map<number, number>();
    for (const { rowid, length, frequency, sequence, position, passes } of rows) {
      if (passes) documents.set(rowid, (documents.get(rowid) ?? 0) + bm25TermScore(idf, frequency, length, averageLength));
      if (sequence === null || position === null) continue;
      const keys = placed.get(rowid) ?? windowKeysCovering(sequence, position, shape);
      for (const key of keys) frequencies.set(key, (frequencies.get(key) ?? 0) + frequency);
      if (passes) placed.set(rowid, keys);
    }
    perTerm.push({ idf: inverseDocumentFrequency(totals.windows, frequencies.size), frequencies });
  }
  if (placed.size === 0 || totals.windows === 0) return empty;
  const eligible = new Set<number>();
  for (const keys of placed.values()) for (const key of keys) eligible.add(key);
  const averageWindowLength = averageLengthOf({ documents: totals.windows, totalLength: totals.windowLength });
  return {
    keys: [...eligible],
    finish(lengths) {
      const windows = new Map<number, number>();
      for (const key of eligible) {
        const length = lengths.get(key);
        if (length === undefined) continue;
        let score = 0;
        for (const { idf, frequencies } of perTerm) {
          const frequency = frequencies.get(key);
          if (frequency !== undefined) score += bm25TermScore(idf, frequency, length, averageWindowLength);
        }
        windows.set(key, score);
      }
      const bestWindow = new Map<number, number>();
      for (const [rowid, keys] of placed) {
        let best = 0;
        for (const key of keys) best = Math.max(best, windows.get(key) ?? 0);
        bestWindow.set(rowid, best);
      }
      return { documents, windows, bestWindow };
    },
  };
}
