import { englishStopwords } from './english-stopwords';

/** The most terms a query keeps, so a pasted document cannot make one huge FTS expression. */
const maximumTerms = 64;

/**
 * Normalises a query into FTS terms: lower case, possessives dropped, split on anything that is
 * not a letter or digit, stopwords removed (unless nothing else is left), duplicates removed.
 */
export function queryTerms(query: string): string[] {
  const words =
    query
      .toLowerCase()
      .replace(/['’]s\b/g, '')
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const content = words.filter((word) => !englishStopwords.has(word) && word.length > 1);
  const chosen = content.length > 0 ? content : words;
  return [...new Set(chosen)].slice(0, maximumTerms);
}

/** An FTS5 expression that ORs the terms; each is quoted, so no term is read as an operator. */
export function orExpression(terms: ReadonlyArray<string>): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' OR ');
}
