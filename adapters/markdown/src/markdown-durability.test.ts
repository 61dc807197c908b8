import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runConcurrencyHarness, runCrashHarness } from './testing/markdown-durability-harness';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();

// The bounded versions of the crash and concurrency harnesses; `npm run bench markdown-durability`
// runs the long ones and writes their counts to BENCHMARKS.md.
describe('markdown durability harnesses', () => {
  it('loses no acknowledged write and tears no batch across 20 SIGKILLs in multi-file batches, 5 of them stopped inside a batch', async () => {
    const random = fc.sample(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { numRuns: 40, seed: 15 });
    let next = 0;
    const report = await runCrashHarness(temporary.root(), { kills: 20, insideWriteEvery: 4, maxDelayMs: 40, random: () => random[next++ % random.length] as number });
    expect(report.kills).toBe(20);
    expect(report.acknowledgedRecords).toBeGreaterThan(0);
    expect({ lost: report.lost, torn: report.torn, unreadable: report.unreadable, disagreeing: report.disagreeing }).toEqual({ lost: 0, torn: 0, unreadable: 0, disagreeing: 0 });
    // Evidence that the kills hit writes, not only the gaps between them: at least the 5 stopped inside one.
    expect(report.killsInsideWrite).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('loses no acknowledged write when processes open and write during a 30k-record rebuild', async () => {
    const report = await runConcurrencyHarness(temporary.root(), { records: 30_000, writers: 3, batches: 20, lockTimeoutMs: 100 });
    expect(report.acknowledgedRecords).toBe(3 * 20 * 10);
    const { lost, torn, unreadable, disagreeing, untypedErrors } = report;
    expect({ lost, torn, unreadable, disagreeing, untypedErrors }).toEqual({ lost: 0, torn: 0, unreadable: 0, disagreeing: 0, untypedErrors: 0 });
    // The openers met the rebuild's lock, as a typed retryable error, and retried.
    expect(report.busyRetries).toBeGreaterThan(0);
  }, 120_000);
});
