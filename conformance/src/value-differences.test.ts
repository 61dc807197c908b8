import { describe, expect, it } from 'vitest';
import { expectDeepEqual } from './assertions';
import { describeDifferences } from './value-differences';

describe('describeDifferences', () => {
  it('names each differing field by its path, with the expected and the actual value', () => {
    const expected = { kind: 'run', issueId: 'issue-1', nested: { list: [1, 'two', { three: 3 }] }, 'ключ 🔑': 'v', nothing: null };
    const actual = { kind: 'run', nested: { list: [1, 'two', { three: 4 }] }, 'ключ 🔑': 'w', extra: true };
    expect(describeDifferences(actual, expected)).toEqual([
      'issueId: expected "issue-1", got nothing',
      'nested.list[2].three: expected 3, got 4',
      '["ключ 🔑"]: expected "v", got "w"',
      'nothing: expected null, got nothing',
      'extra: expected nothing, got true',
    ]);
  });

  it('reports a list of another length once, and stops after the limit', () => {
    expect(describeDifferences({ items: [1, 2] }, { items: [1, 2, 3] })).toEqual(['items: expected 3 items, got 2']);
    const many = Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`k${index}`, index]));
    expect(describeDifferences({}, many, 3)).toEqual(['k0: expected 0, got nothing', 'k1: expected 1, got nothing', 'k2: expected 2, got nothing', 'and more differences']);
  });

  it('keeps each value it names whole, leaving out fields of a large one rather than cutting it', () => {
    const big = { text: 'x'.repeat(500), id: 'r1' };
    const [difference] = describeDifferences({ record: 'gone' }, { record: big });
    const json = difference?.slice('record: expected '.length, difference.lastIndexOf(', got')) ?? '';
    expect(JSON.parse(json)).toEqual({ id: 'r1', '…': '1 field left out: text' });
  });
});

describe('expectDeepEqual', () => {
  it('ends its message with the fields that differ', () => {
    expect(() => expectDeepEqual({ summary: undefined, text: 't' }, { summary: 's', text: 't' }, 'the record returned by get')).toThrow(
      'Expected the record returned by get to equal {"summary":"s","text":"t"}, but got {"text":"t"}. Differs at summary: expected "s", got nothing.',
    );
  });

  it('adds nothing for two plain values, whose message already names both', () => {
    expect(() => expectDeepEqual(1, 2, 'the count')).toThrow(/^Expected the count to equal 2, but got 1\.$/);
  });
});
