import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../lexical-scoring';
import { encodeRepeats, frequencyIn } from './term-repeats';

describe('term repeats', () => {
  it('gives back the frequency of every term of any analysed text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('deploy', 'deploys', 'friday', '2', '22', 'a2', 'grüße', 'x', 'xx'), { maxLength: 30 }), fc.string(), (words, extra) => {
        const tokens = tokenize(`${words.join(' ')} ${extra}`);
        const encoded = encodeRepeats(tokens);
        for (const term of new Set(tokens)) expect(frequencyIn(encoded, term)).toBe(tokens.filter((token) => token === term).length);
      }),
      { numRuns: 300 },
    );
  });

  it('stores nothing when no term repeats', () => {
    expect(encodeRepeats(['deploy', 'friday'])).toBeNull();
    expect(encodeRepeats(['deploy', 'friday', 'deploy', '2', '2', '2'])).toBe('deploy:2 2:3');
  });
});
