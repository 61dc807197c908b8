import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankCandidates, rankCandidatesAsync } from './candidate-ranking';

/** A search's findings: windows with members, some members holding a query term, and own scores. */
const findingsSpec = fc.record({
  windows: fc.array(fc.record({ score: fc.constantFrom(0.5, 1, 1.5, 2, 3.25), members: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }) }), { maxLength: 60 }),
  holding: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 20 }),
  own: fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.constantFrom(0.25, 1, 2, 4.5, 9)), { maxLength: 30 }),
  context: fc.constantFrom(0, 1, 3),
});

describe('rankCandidates', () => {
  it('yields exactly the order of scoring every window member first (score, then rowid), reading windows lazily', () => {
    fc.assert(
      fc.property(findingsSpec, fc.integer({ min: 1, max: 80 }), (findings, taken) => {
        const windows = new Map(findings.windows.map((window, key) => [key, window.score]));
        const windowsOf = (rowid: number) => findings.windows.flatMap((window, key) => (window.members.includes(rowid) ? [key] : []));
        const own = new Map(findings.own);
        // A record holding a term sits in windows that were all scored: its best window is known up front.
        const bestWindow = new Map(findings.holding.filter((rowid) => windowsOf(rowid).length > 0).map((rowid) => [rowid, Math.max(...windowsOf(rowid).map((key) => windows.get(key) as number))]));
        const reads: number[][] = [];
        const lazily = [
          ...rankCandidates({
            own,
            bestWindow,
            windows,
            context: findings.context,
          }, (keys) => {
            reads.push([...keys]);
            return keys.flatMap((key) => (findings.windows[key] as { members: number[] }).members.map((rowid) => [key, rowid] as const));
          }),
        ].slice(0, taken);
        const everyone = new Set([...own.keys(), ...findings.windows.flatMap((window) => window.members)]);
        const eagerly = [...everyone]
          .map((rowid) => {
            const windowScore = Math.max(0, ...windowsOf(rowid).map((key) => windows.get(key) as number));
            const ownScore = own.get(rowid) ?? 0;
            return { rowid, score: ownScore + findings.context * windowScore, ownScore, windowScore };
          })
          .filter((entry) => entry.score > 0)
          .sort((left, right) => right.score - left.score || left.rowid - right.rowid)
          .slice(0, taken);
        expect(lazily).toEqual(eagerly);
        // No window is read twice.
        expect(new Set(reads.flat()).size).toBe(reads.flat().length);
      }),
      { numRuns: 500 },
    );
  });

  it('reads no window members when the records holding the terms outrank every window', () => {
    const reads: number[][] = [];
    const ranked = rankCandidates({
      own: new Map([[1, 10], [2, 9]]),
      bestWindow: new Map([[1, 1], [2, 1]]),
      windows: new Map([[0, 1]]),
      context: 3,
    }, (keys) => {
      reads.push([...keys]);
      return [[0, 1], [0, 2], [0, 3]];
    });
    expect(ranked.next().value).toEqual({ rowid: 1, score: 13, ownScore: 10, windowScore: 1 });
    expect(reads).toEqual([]);
  });

  it('ranks the same through an asynchronous index', async () => {
    await fc.assert(
      fc.asyncProperty(findingsSpec, async (findings) => {
        const windows = new Map(findings.windows.map((window, key) => [key, window.score]));
        const scores = { own: new Map(findings.own), bestWindow: new Map<number, number>(), windows, context: findings.context };
        const membersOf = (keys: readonly number[]) => keys.flatMap((key) => (findings.windows[key] as { members: number[] }).members.map((rowid) => [key, rowid] as const));
        const asynchronously = [];
        for await (const candidate of rankCandidatesAsync(scores, async (keys) => membersOf(keys))) asynchronously.push(candidate);
        expect(asynchronously).toEqual([...rankCandidates(scores, membersOf)]);
      }),
      { numRuns: 200 },
    );
  });
});
