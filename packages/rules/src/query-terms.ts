import { englishStopwords } from './english-stopwords';
import { tokenize } from './lexical-scoring';

/** The most terms a query keeps, so a pasted document cannot make one huge index lookup. */
const maximumTerms = 64;

/**
 * The analysed terms of a query, what every backend looks up: NFKC and lower case, possessives
 * dropped, function and question words out (`englishStopwords`, unless nothing else is left), then
 * the analyser's stems (`tokenize`), distinct, in order of first appearance, at most 64.
 */
export function queryTerms(query: string): string[] {
  return queryWords(query).map((entry) => entry.term);
}

/** One word of a query and the term the analyser makes of it. */
export interface QueryWord {
  /** The word as written, lower case (`staging`). */
  readonly word: string;
  /** Its analysed term (`stage`). */
  readonly term: string;
}

/** The words behind {@link queryTerms}, each with its term: the first word of each distinct term. */
export function queryWords(query: string): QueryWord[] {
  const words = query.normalize('NFKC').toLowerCase().replace(/['’]s\b/gu, '').match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  const content = words.filter((word) => !englishStopwords.has(word));
  const found = new Map<string, QueryWord>();
  for (const word of content.length > 0 ? content : words) {
    const [term] = tokenize(word);
    if (term !== undefined && !found.has(term)) found.set(term, { word, term });
    if (found.size === maximumTerms) break;
  }
  return [...found.values()];
}
