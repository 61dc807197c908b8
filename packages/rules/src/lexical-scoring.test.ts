import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctTerms, rankByBm25, tokenize } from './lexical-scoring';

describe('tokenize', () => {
  it('lowercases, splits on non-letters and drops stopwords', () => {
    expect(tokenize('The deploy-window is on TUESDAY, at 10:00!')).toEqual(['deploy', 'window', 'tuesday', '10', '00']);
  });

  it('keeps letters and digits of every script', () => {
    expect(tokenize('Grüße aus Köln — Привет, мир; naïve café 42')).toEqual([
      'grüße',
      'aus',
      'köln',
      'привет',
      'мир',
      'naïve',
      'café',
      '42',
    ]);
  });

  it('normalises compatibility forms so equal-looking words match', () => {
    expect(tokenize('ｆｕｌｌ width')).toEqual(tokenize('full width'));
    expect(tokenize('cafe\u0301')).toEqual(tokenize('café'));
  });

  it('gives nothing for stopwords and punctuation only', () => {
    expect(tokenize('to be, or not to be?')).toEqual(['not']);
    expect(tokenize(' ... ')).toEqual([]);
  });

  it('stems English words and leaves accented words and other scripts whole', () => {
    expect(tokenize('Deploys deployed deploying happens')).toEqual(['deploy', 'deploy', 'deploy', 'happen']);
    expect(tokenize('naïve cafés привет')).toEqual(['naïve', 'cafés', 'привет']);
  });

  it('lists distinct terms in order of first appearance', () => {
    expect(distinctTerms('deploy tuesday deploy friday')).toEqual(['deploy', 'tuesday', 'friday']);
  });
});

describe('rankByBm25', () => {
  const documents = (...texts: string[]) => texts.map((text) => ({ payload: text, terms: tokenize(text) }));

  it('ranks documents matching more and rarer query terms first', () => {
    const ranked = rankByBm25(
      tokenize('deploy friday'),
      documents('we deploy on friday', 'we deploy often', 'lunch on friday', 'deploy deploy deploy', 'nothing here'),
    );
    // Both terms beat one; "friday" (in 2 documents) is rarer than "deploy" (in 3), so it weighs
    // more; repeating a term saturates instead of adding up linearly.
    expect(ranked.map((match) => match.payload)).toEqual([
      'we deploy on friday',
      'lunch on friday',
      'deploy deploy deploy',
      'we deploy often',
    ]);
    expect(ranked[0]?.matchedTerms).toEqual(['deploy', 'friday']);
  });

  it('returns only documents scoring above zero', () => {
    const ranked = rankByBm25(['absent'], documents('one', 'two'));
    expect(ranked).toEqual([]);
  });

  it('keeps corpus order among equal scores', () => {
    const ranked = rankByBm25(['same'], documents('same text', 'other', 'same text'));
    expect(ranked).toHaveLength(2);
    expect(ranked[0]?.score).toBe(ranked[1]?.score);
    expect(ranked.map((match) => match.payload)).toEqual(['same text', 'same text']);
    const [first, second] = rankByBm25(['same'], [
      { payload: 'older', terms: ['same', 'text'] },
      { payload: 'newer', terms: ['same', 'text'] },
    ]);
    expect([first?.payload, second?.payload]).toEqual(['older', 'newer']);
  });

  it('counts a repeated query term once', () => {
    const corpus = documents('alpha beta', 'beta gamma');
    expect(rankByBm25(['alpha', 'alpha', 'beta'], corpus)).toEqual(rankByBm25(['alpha', 'beta'], corpus));
  });

  it('gives identical scores for identical input', () => {
    const corpus = documents('alpha beta', 'beta gamma', 'gamma delta alpha');
    expect(rankByBm25(['alpha', 'gamma'], corpus)).toEqual(rankByBm25(['alpha', 'gamma'], corpus));
  });

  it('handles an empty corpus, an empty query and empty documents', () => {
    expect(rankByBm25(['alpha'], [])).toEqual([]);
    expect(rankByBm25([], documents('alpha'))).toEqual([]);
    expect(rankByBm25(['alpha'], [{ payload: 'empty', terms: [] }])).toEqual([]);
  });
});

describe('tokenize, attacked with arbitrary text', () => {
  /** The definition's split, without the ASCII shortcut; each word then goes through tokenize alone (stopwords, stems). */
  const reference = (text: string) =>
    text
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .flatMap((word) => (word === '' ? [] : tokenize(word)));

  it('gives the tokens of the Unicode definition for ASCII and for any other text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary-ascii' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('Deploys ＤＥＰＬＯＹ cafe\u0301 Ⅻ ǅ İstanbul', 'The ISS-7 run_3 x86-64')), (text) => {
        expect(tokenize(text)).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });
});
