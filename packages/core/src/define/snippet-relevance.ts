import type { MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';

/**
 * Turns the scores an adapter returned (its provider's scale: BM25, cosine similarity, reciprocal
 * rank fusion) into relevance in [0, 1] relative to the best snippet of the answer, and keeps each
 * adapter score as `rawScore`. With every score at 0 or above, relevance is `score / best`, so the
 * best snippet has 1 and one matching half as strongly has 0.5. Negative scores (a cosine
 * similarity below 0) shift the floor: `(score − lowest) / (best − lowest)`. Snippets without a
 * score keep none; an answer whose scores are all equal and at most 0 gives each 0. A `rawScore` the adapter set
 * itself is kept.
 */
export function withRelevance(snippets: MemorySnippet[]): MemorySnippet[] {
  let best = Number.NEGATIVE_INFINITY;
  let lowest = 0;
  for (const snippet of snippets) {
    if (snippet.score === undefined) continue;
    best = Math.max(best, snippet.score);
    lowest = Math.min(lowest, snippet.score);
  }
  const span = best - lowest;
  return snippets.map((snippet) => {
    if (snippet.score === undefined) {
      const { rawScore: _withoutScore, ...rest } = snippet;
      return rest;
    }
    // An adapter that relays another memplane (an HTTP client of `memplane serve`) passes on the
    // raw score it was given; relevance is unchanged by a second pass (the best is already 1).
    return { ...snippet, score: span > 0 ? (snippet.score - lowest) / span : 0, rawScore: snippet.rawScore ?? snippet.score };
  });
}
