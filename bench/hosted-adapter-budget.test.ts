import { describe, expect, it } from 'vitest';
import { median } from './bench-harness';
import { addedPerPair, bootstrapMedianInterval, budgetVerdict, measureAgainstBudget } from './hosted-adapter-budget';

/** Rounds spread around a known centre. */
function spreadAround(centre: number, count: number, spread: number): number[] {
  return Array.from({ length: count }, (_, index) => centre + spread * Math.sin(index * 2.399));
}

describe('bootstrapMedianInterval', () => {
  it('holds the sample median, lies within the sample and is reproducible', () => {
    const rounds = spreadAround(300, 31, 40);
    const [low, high] = bootstrapMedianInterval(rounds);
    expect(low).toBeLessThanOrEqual(median(rounds));
    expect(high).toBeGreaterThanOrEqual(median(rounds));
    expect(low).toBeGreaterThanOrEqual(Math.min(...rounds));
    expect(high).toBeLessThanOrEqual(Math.max(...rounds));
    expect(bootstrapMedianInterval(rounds)).toEqual([low, high]);
  });

  it('narrows as rounds agree more', () => {
    const [wideLow, wideHigh] = bootstrapMedianInterval(spreadAround(5, 31, 20));
    const [narrowLow, narrowHigh] = bootstrapMedianInterval(spreadAround(5, 31, 2));
    expect(narrowHigh - narrowLow).toBeLessThan(wideHigh - wideLow);
  });
});

describe('budgetVerdict', () => {
  it('calls the budget met only when the whole interval is within it', () => {
    expect(budgetVerdict([200, 250], 250)).toBe('met');
    expect(budgetVerdict([200, 251], 250)).toBe('undecided');
    expect(budgetVerdict([251, 400], 250)).toBe('missed');
  });
});

describe('addedPerPair', () => {
  // Round 2k runs the SDK first, round 2k + 1 the adapter first; whichever runs first costs 10 % more.
  const penalty = (round: number, variant: 'direct' | 'adapter') => ((round % 2 === 0) === (variant === 'direct') ? 1.1 : 1);

  it('reads 0 for the SDK against itself and the true cost of the adapter, whatever running first costs', () => {
    const direct = Array.from({ length: 10 }, (_, round) => 100 * penalty(round, 'direct'));
    const same = Array.from({ length: 10 }, (_, round) => 100 * penalty(round, 'adapter'));
    const dearer = Array.from({ length: 10 }, (_, round) => 140 * penalty(round, 'adapter'));
    for (const added of addedPerPair(direct, same)) expect(added).toBeCloseTo(0, 10);
    for (const added of addedPerPair(direct, dearer)) expect(added).toBeCloseTo(42, 10);
  });
});

describe('measureAgainstBudget', () => {
  it('finds a variant that burns more CPU over its budget, and the same work within it', async () => {
    const spin = (microseconds: number) => async () => {
      const until = process.cpuUsage();
      while (true) {
        const used = process.cpuUsage(until);
        if (used.user + used.system >= microseconds) return;
      }
    };
    const options = { rounds: 6, callsPerRound: 5, warmupCalls: 1 };
    const over = await measureAgainstBudget({ direct: spin(200), adapter: spin(2200) }, 500, options);
    expect(over.verdict).toBe('missed');
    const within = await measureAgainstBudget({ direct: spin(200), adapter: spin(200) }, 500, options);
    expect(within.verdict).toBe('met');
  });
});
