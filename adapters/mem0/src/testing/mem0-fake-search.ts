import type { Mem0FakeMemory } from './mem0-fake-store';

const stopwords = new Set(['a', 'an', 'and', 'are', 'about', 'for', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'what', 'which', 'with']);

/** Lower-case terms, split on anything that is not a letter or a digit. */
function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term !== '' && !stopwords.has(term));
}

const termsOfText = new Map<string, Set<string>>();

/** The terms of a memory text, kept per text so a search does not tokenize the store again. */
function termsOf(text: string): Set<string> {
  let terms = termsOfText.get(text);
  if (terms === undefined) {
    terms = new Set(tokenize(text));
    if (termsOfText.size > 50_000) termsOfText.clear();
    termsOfText.set(text, terms);
  }
  return terms;
}

/**
 * The fake's relevance: the share of query terms a memory holds, in [0, 1], reported as
 * mem0's combined score with a `score_breakdown`. Ties keep the newest first. Test-only.
 */
export function rankMemories(memories: Mem0FakeMemory[], query: string, threshold: number, topK: number) {
  const terms = [...new Set(tokenize(query))];
  return memories
    .map((memory) => {
      const held = termsOf(memory.memory);
      const bm25 = terms.length === 0 ? 0 : terms.filter((term) => held.has(term)).length / terms.length;
      return { memory, score: { total: Math.round(bm25 * 0.9 * 1e6) / 1e6, semantic: bm25 * 0.8, bm25, entity: 0 } };
    })
    .filter((ranked) => ranked.score.total >= threshold && ranked.score.total > 0)
    .sort((left, right) => right.score.total - left.score.total || right.memory.sequence - left.memory.sequence)
    .slice(0, topK);
}
