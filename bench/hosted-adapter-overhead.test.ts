import { describe, expect, it } from 'vitest';
import { median } from './bench-harness';
import { bootstrapMedianInterval, overheadVerdict } from './hosted-adapter-overhead';

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
