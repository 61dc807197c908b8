import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import { withRelevance } from './snippet-relevance';

const snippet = (score: number | undefined, index: number): MemorySnippet => ({ handle: { providerKey: 'p', providerRecordId: `r${index}` }, text: `t${index}`, ...(score === undefined ? {} : { score }) });
const scores = fc.array(fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: undefined }), { maxLength: 12 });

describe('withRelevance', () => {
  it('gives relevance in [0, 1], keeps the order of the raw scores, gives the best 1, and keeps each raw score', () => {
    fc.assert(
      fc.property(scores, (raw) => {
        const ranked = withRelevance(raw.map(snippet));
        ranked.forEach((entry, index) => {
          expect(entry.rawScore).toBe(raw[index]);
          if (raw[index] === undefined) return expect(entry.score).toBeUndefined();
          expect(entry.score).toBeGreaterThanOrEqual(0);
          expect(entry.score).toBeLessThanOrEqual(1);
        });
        const scored = ranked.filter((entry) => entry.score !== undefined) as Array<Required<Pick<MemorySnippet, 'score' | 'rawScore'>>>;
        for (const left of scored) for (const right of scored) if (left.rawScore < right.rawScore) expect(left.score).toBeLessThanOrEqual(right.score);
        const best = Math.max(...scored.map((entry) => entry.rawScore));
        const lowest = Math.min(0, ...scored.map((entry) => entry.rawScore));
        expect(scored.find((entry) => entry.rawScore === best)?.score).toBe(best > lowest ? 1 : scored.length === 0 ? undefined : 0);
      }),
    );
  });

  it('makes BM25 and fused-rank scores readable: 2.32 and 1.16 become 1 and 0.5; 0.0164 and 0.0161 become 1 and 0.98', () => {
    expect(withRelevance([snippet(2.32, 0), snippet(1.16, 1)]).map((entry) => entry.score)).toEqual([1, 0.5]);
    expect(withRelevance([snippet(1 / 61, 0), snippet(1 / 62, 1)]).map((entry) => Number(entry.score?.toFixed(2)))).toEqual([1, 0.98]);
  });

  it('is unchanged by a second pass, which keeps the first raw scores (a client relaying memplane serve)', () => {
    const once = withRelevance([snippet(4, 0), snippet(1, 1), snippet(undefined, 2)]);
    expect(withRelevance(once)).toEqual(once);
    expect(once.map((entry) => entry.rawScore)).toEqual([4, 1, undefined]);
  });

  it('gives 0 to every snippet of an answer whose scores are all equal and at most 0, and drops a raw score a snippet without a score claims', () => {
    expect(withRelevance([snippet(0, 0), snippet(0, 1)]).map((entry) => entry.score)).toEqual([0, 0]);
    expect(withRelevance([snippet(-0.2, 0), snippet(-0.2, 1)]).map((entry) => entry.score)).toEqual([0, 0]);
    expect(withRelevance([snippet(-0.2, 0), snippet(0.6, 1)]).map((entry) => entry.score)).toEqual([0, 1]);
    expect(withRelevance([{ ...snippet(undefined, 0), rawScore: 3 }])).toEqual([snippet(undefined, 0)]);
  });
});
