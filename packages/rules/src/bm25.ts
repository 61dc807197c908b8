/**
 * Okapi BM25, the one formula every memplane backend scores with, so the in-memory scan, SQLite
 * FTS5 and Postgres rank the same documents the same way.
 */

/** Term-frequency saturation. */
export const bm25K1 = 1.2;
/** Document-length normalisation. */
export const bm25B = 0.75;

/**
 * The inverse document frequency of a term held by `containing` of `documents` documents:
 * `ln(1 + (N − n + 0.5) / (n + 0.5))`. Unlike the classic form (and SQLite FTS5's `bm25()`, which
 * clamps it to 1e-6), it stays positive when a term is in half the documents or more, the normal
 * case in a young memory, so a common term still counts a little.
 */
export function inverseDocumentFrequency(documents: number, containing: number): number {
  return Math.log(1 + (documents - containing + 0.5) / (containing + 0.5));
}

/** What one term adds to a document's score: `idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / averageLength))`. */
export function bm25TermScore(idf: number, frequency: number, length: number, averageLength: number): number {
  return (idf * frequency * (bm25K1 + 1)) / (frequency + bm25K1 * (1 - bm25B + (bm25B * length) / averageLength));
}

/** The statistics of the documents a query is scored against. */
export interface Bm25Corpus {
  /** How many documents. */
  readonly documents: number;
  /** The sum of their lengths, in tokens. */
  readonly totalLength: number;
}

/** The mean document length of a corpus; 1 for an empty one, so no division by zero. */
export function averageLengthOf(corpus: Bm25Corpus): number {
  return corpus.documents === 0 ? 1 : corpus.totalLength / corpus.documents || 1;
}
