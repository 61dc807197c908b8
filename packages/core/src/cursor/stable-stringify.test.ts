import { describe, expect, it } from 'vitest';
import { stableStringify } from './stable-stringify';

describe('stableStringify', () => {
  it('gives equal strings for objects with the same entries in another order', () => {
    expect(stableStringify({ b: 1, a: 2 })).toBe(stableStringify({ a: 2, b: 1 }));
    expect(stableStringify({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('sorts keys at every depth, inside arrays too', () => {
    const left = { outer: { z: [{ y: 1, x: 2 }], a: null } };
    const right = { outer: { a: null, z: [{ x: 2, y: 1 }] } };
    expect(stableStringify(left)).toBe(stableStringify(right));
    expect(stableStringify(left)).toBe('{"outer":{"a":null,"z":[{"x":2,"y":1}]}}');
  });

  it('keeps the order of array items', () => {
    expect(stableStringify([2, 1])).not.toBe(stableStringify([1, 2]));
    expect(stableStringify([2, 1])).toBe('[2,1]');
  });

  it('drops object entries that are undefined, as JSON does', () => {
    expect(stableStringify({ a: 1, b: undefined })).toBe(stableStringify({ a: 1 }));
  });

  it('writes primitives as JSON does', () => {
    for (const value of ['text with "quotes"', 42, -1.5, true, false, null]) {
      expect(stableStringify(value)).toBe(JSON.stringify(value));
    }
    expect(stableStringify(undefined)).toBe('null');
    expect(stableStringify([undefined])).toBe(JSON.stringify([undefined]));
  });

  it('escapes keys as JSON does', () => {
    const value = { 'a"b': 1, 'line\nbreak': 2 };
    expect(JSON.parse(stableStringify(value))).toEqual(value);
  });

  it('tells different values apart', () => {
    expect(stableStringify({ a: 1 })).not.toBe(stableStringify({ a: '1' }));
    expect(stableStringify({ a: [1] })).not.toBe(stableStringify({ a: 1 }));
    expect(stableStringify({})).not.toBe(stableStringify([]));
  });
});
