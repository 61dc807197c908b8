import { describe, expect, it } from 'vitest';
import { toIsoTimestamp } from './agentcore-timestamp';

const fixed = [
  0,
  -1,
  1,
  951_782_400_000, // 2000-02-29
  951_868_799_999, // 2000-02-29T23:59:59.999Z
  4_107_542_400_000, // 2100-03-01
  1_763_783_370_486,
  -62_167_219_200_000, // 0000-01-01
  -62_167_219_200_001, // just before year 0: built-in path
  253_402_300_799_999, // 9999-12-31T23:59:59.999Z
  253_402_300_800_000, // 10000-01-01: built-in path
  -8_640_000_000_000_000,
  8_640_000_000_000_000,
];

describe('toIsoTimestamp', () => {
  it.each(fixed)('writes %d as toISOString does', (time) => {
    expect(toIsoTimestamp(new Date(time))).toBe(new Date(time).toISOString());
  });

  it('agrees with toISOString on spread timestamps across years 0 to 9999', () => {
    // A fixed stride through the range, with an odd remainder so that every field varies.
    for (let time = -62_167_219_200_000; time < 253_402_300_800_000; time += 7_919_003_117_777) {
      expect(toIsoTimestamp(new Date(time))).toBe(new Date(time).toISOString());
      expect(toIsoTimestamp(new Date(time + 86_399_999))).toBe(new Date(time + 86_399_999).toISOString());
    }
  });

  it('throws like toISOString for an invalid date', () => {
    expect(() => toIsoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
