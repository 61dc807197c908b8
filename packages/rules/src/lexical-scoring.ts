/**
 * Lexical retrieval shared by the in-memory adapter and the engine: a Unicode-aware tokenizer with English
 * stemming, and Okapi BM25. Everything here is pure and deterministic; the same corpus and
 * query always give the same scores in the same order.
 */
/// <reference path="./wink-porter2-stemmer.d.ts" />
import stemEnglish from 'wink-porter2-stemmer';
import { averageLengthOf, bm25TermScore, inverseDocumentFrequency } from './bm25';

/** Words too common to carry meaning. Deliberately small, English only. */
const stopwords: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'do', 'does', 'for', 'from', 'has', 'have',
  'i', 'if', 'in', 'is', 'it', 'its', 'of', 'on', 'or', 'so', 'that', 'the', 'their', 'them', 'then',
  'there', 'these', 'they', 'this', 'to', 'was', 'we', 'were', 'what', 'when', 'which', 'who', 'will',
  'with', 'you', 'your',
]);

/** Words the English stemmer is applied to: plain ASCII letters. */
const englishWord = /^[a-z]+$/;

/**
 * Splits text into lowercase terms: NFKC-normalised, split on every character that is not a
 * letter, a combining mark or a digit (in any script), with stopwords dropped. English words
 * are reduced to their Porter2 stem, so "deploy", "deploys" and "deployed" are one term. Every
 * local backend indexes these tokens (the markdown adapter's and the engine's full-text indexes,
 * the in-memory scans). Words of other scripts and words with accents are kept whole: an English
 * stemmer would only mangle them.
 */
export function tokenize(text: string): string[] {
  // Plain ASCII is NFKC already and splits on a simpler class: the same tokens, several times
  // faster, and most memory text is ASCII.
  const ascii = asciiText.test(text);
  const words = ascii ? text.toLowerCase().split(/[^a-z0-9]+/) : text.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u);
  const tokens: string[] = [];
  for (const word of words) {
    if (word === '' || stopwords.has(word)) continue;
    tokens.push(englishWord.test(word) ? stemOf(word) : word);
  }
  return tokens;
}

const asciiText = /^[\x00-\x7f]*$/;

/**
 * Stems already computed. Words follow Zipf's law, so a few thousand entries serve most of a
 * corpus, and the stemmer is the analyser's main cost; the memo is emptied when it grows past
 * 50,000 words, so a stream of distinct words cannot make it grow without bound.
 */
const stems = new Map<string, string>();

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemEnglish(word);
    if (stems.size >= 50_000) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/** The distinct terms of a text, in order of first appearance. */
export function distinctTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/** One document of the corpus a query is scored against. */
export interface LexicalDocument<Payload> {
  /** What the caller gets back with the score. */
  payload: Payload;
  /** The document's terms, from {@link tokenize}. */
  terms: readonly string[];
}

/** A document that matched at least one query term. */
export interface LexicalMatch<Payload> {
  /** The document's payload. */
  payload: Payload;
  /** The BM25 score, always greater than 0. */
  score: number;
  /** The query terms the document contains, in query order. */
  matchedTerms: string[];
}

/**
 * Scores every document against the distinct query terms with BM25 and returns the documents
 * that score above 0, best first. Ties keep corpus order, so a caller that passes documents
 * oldest first gets older documents first among equals. Corpus statistics (document count,
 * average length, document frequencies) come from `documents` alone.
 */
export function rankByBm25<Payload>(
  queryTerms: readonly string[],
  documents: ReadonlyArray<LexicalDocument<Payload>>,
): LexicalMatch<Payload>[] {
  const terms = [...new Set(queryTerms)];
  if (terms.length === 0 || documents.length === 0) return [];
  const averageLength = averageLengthOf({ documents: documents.length, totalLength: documents.reduce((sum, document) => sum + document.terms.length, 0) });
  const frequencies = documents.map((document) => countTerms(document.terms, terms));
  const inverseFrequency = new Map(
    terms.map((term) => {
      const containing = frequencies.filter((counts) => counts.has(term)).length;
      return [term, inverseDocumentFrequency(documents.length, containing)];
    }),
  );

  const matches: Array<LexicalMatch<Payload> & { position: number }> = [];
  documents.forEach((document, position) => {
    const counts = frequencies[position] ?? new Map<string, number>();
    let score = 0;
    const matchedTerms: string[] = [];
    for (const term of terms) {
      const frequency = counts.get(term) ?? 0;
      if (frequency === 0) continue;
      matchedTerms.push(term);
      score += bm25TermScore(inverseFrequency.get(term) ?? 0, frequency, document.terms.length, averageLength);
    }
    if (score > 0) matches.push({ payload: document.payload, score, matchedTerms, position });
  });
  matches.sort((left, right) => right.score - left.score || left.position - right.position);
  return matches.map(({ payload, score, matchedTerms }) => ({ payload, score, matchedTerms }));
}

function countTerms(documentTerms: readonly string[], wanted: readonly string[]): Map<string, number> {
  const wantedSet = new Set(wanted);
  const counts = new Map<string, number>();
  for (const term of documentTerms) {
    if (wantedSet.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}
