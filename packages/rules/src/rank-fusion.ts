/** One ranked list entry of a retriever. */
export interface RankedEntry {
  /** The record id. */
  id: string;
  /** The retriever's score, higher is better. */
  score: number;
}

/** The RRF constant; 60 is the value of the original paper and of memsearch. */
export const reciprocalRankConstant = 60;

/** Reciprocal rank fusion: each list adds 1 / (60 + rank) for each of its entries. */
export function fuseByReciprocalRank(lexical: RankedEntry[], vector: RankedEntry[]): Map<string, number> {
  const fused = new Map<string, number>();
  for (const list of [lexical, vector]) {
    list.forEach((entry, index) => fused.set(entry.id, (fused.get(entry.id) ?? 0) + 1 / (reciprocalRankConstant + index + 1)));
  }
  return fused;
}

/**
 * Weighted fusion as OpenClaw does it: 0.7 × cosine similarity + 0.3 × BM25 normalised by the best
 * BM25 score of the query; an entry missing from a list scores 0 there.
 */
export function fuseByWeight(lexical: RankedEntry[], vector: RankedEntry[], vectorWeight = 0.7): Map<string, number> {
  const fused = new Map<string, number>();
  const best = Math.max(...lexical.map((entry) => entry.score), Number.EPSILON);
  for (const entry of lexical) fused.set(entry.id, (1 - vectorWeight) * (entry.score / best));
  for (const entry of vector) fused.set(entry.id, (fused.get(entry.id) ?? 0) + vectorWeight * Math.max(0, entry.score));
  return fused;
}
