import { describe, expect, it } from 'vitest';
import { median } from './bench-harness';
import { bootstrapMedianInterval, overheadVerdict, summarizeRoundPairs } from './hosted-adapter-overhead';

/** Rounds spread around a known centre, like per-round overhead ratios. */
function spreadAround(centre: number, count: number, spread: number): number[] {
  return Array.from({ length: count }, (_, index) => centre + spread * Math.sin(index * 2.399));
}

describe('bootstrapMedianInterval', () => {
  it('holds the sample median and lies within the sample', () => {
    const rounds = spreadAround(8, 31, 12);
    const [low, high] = bootstrapMedianInterval(rounds);
    expect(low).toBeLessThanOrEqual(median(rounds));
    expect(high).toBeGreaterThanOrEqual(median(rounds));
    expect(low).toBeGreaterThanOrEqual(Math.min(...rounds));
    expect(high).toBeLessThanOrEqual(Math.max(...rounds));
  });

  it('is reproducible for the same rounds and seed', () => {
    const rounds = spreadAround(3, 41, 9);
    expect(bootstrapMedianInterval(rounds)).toEqual(bootstrapMedianInterval(rounds));
  });

  it('narrows as rounds agree more', () => {
    const [wideLow, wideHigh] = bootstrapMedianInterval(spreadAround(5, 31, 20));
    const [narrowLow, narrowHigh] = bootstrapMedianInterval(spreadAround(5, 31, 2));
    expect(narrowHigh - narrowLow).toBeLessThan(wideHigh - wideLow);
  });
});

describe('overheadVerdict', () => {
  it('calls the target met only when the whole interval is at or below 5 %', () => {
    expect(overheadVerdict([-3, 5])).toBe('met');
    expect(overheadVerdict([-3, 5.1])).toBe('undecided');
    expect(overheadVerdict([4.9, 12])).toBe('undecided');
    expect(overheadVerdict([5.1, 12])).toBe('missed');
  });
});

describe('summarizeRoundPairs', () => {
  // Round 2k runs the SDK first, round 2k + 1 the adapter first; whichever runs first costs 10 % more.
  const rounds = 10;
  const firstRunPenalty = (round: number, variant: 'direct' | 'adapter') => ((round % 2 === 0) === (variant === 'direct') ? 1.1 : 1);

  it('reads 0 % for the SDK against itself, whatever running first costs', () => {
    const direct = Array.from({ length: rounds }, (_, round) => ({ wall: 100, cpu: 100 * firstRunPenalty(round, 'direct') }));
    const adapter = Array.from({ length: rounds }, (_, round) => ({ wall: 100, cpu: 100 * firstRunPenalty(round, 'adapter') }));
    const { cpuRatios, cpuAdded } = summarizeRoundPairs(direct, adapter);
    expect(cpuRatios).toHaveLength(rounds / 2);
    for (const ratio of cpuRatios) expect(ratio).toBeCloseTo(0, 10);
    for (const added of cpuAdded) expect(added).toBeCloseTo(0, 10);
  });

  it('reads the true overhead when the adapter costs 4 % more', () => {
    const direct = Array.from({ length: rounds }, (_, round) => ({ wall: 100, cpu: 100 * firstRunPenalty(round, 'direct') }));
    const adapter = Array.from({ length: rounds }, (_, round) => ({ wall: 104, cpu: 104 * firstRunPenalty(round, 'adapter') }));
    const { cpuRatios, cpuAdded, wallRatios } = summarizeRoundPairs(direct, adapter);
    for (const ratio of cpuRatios) expect(ratio).toBeCloseTo(4, 10);
    for (const added of cpuAdded) expect(added).toBeCloseTo(4.2, 10);
    for (const ratio of wallRatios) expect(ratio).toBeCloseTo(4, 10);
  });
});
