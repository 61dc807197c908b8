import { describe, expect, it } from 'vitest';
import { compareRounds, median, renderComparison, type ResultTable } from './revision-comparison';

const table = (rows: string[][]): ResultTable => ({ title: 'Overhead (µs)', columns: ['operation', 'variant', 'p50', 'p99'], rows });

describe('comparing benchmark results of two revisions', () => {
  it('takes the median of each row over the rounds and the ratio of current to base', () => {
    const base = [[table([['query', 'service', '30', '900']])], [table([['query', 'service', '34', '800']])], [table([['query', 'service', '32', '700']])]];
    const current = [[table([['query', 'service', '40', '1']])], [table([['query', 'service', '31', '1']])], [table([['query', 'service', '33', '1']])]];
    expect(compareRounds(base, current)).toEqual([{ table: 'Overhead (µs)', label: 'query · service', column: 'p50', base: 32, current: 33, ratio: 33 / 32 }]);
  });

  it('keeps a row only one revision has, with no ratio, and skips a figure that is not a number', () => {
    const rows = compareRounds([[table([['list', 'old', '5', '9']])]], [[table([['list', 'new', '6', '9'], ['get', 'new', '–', '9']])]]);
    expect(rows).toEqual([
      { table: 'Overhead (µs)', label: 'list · new', column: 'p50', base: undefined, current: 6, ratio: undefined },
      { table: 'Overhead (µs)', label: 'list · old', column: 'p50', base: 5, current: undefined, ratio: undefined },
    ]);
    expect(renderComparison(rows, 'base', 'HEAD', 1)).toContain('| list · new | – | 6.0 | – |');
  });

  it('reads a median column and thousands separators, and ignores a table with neither p50 nor median', () => {
    const writes: ResultTable = { title: 'Writes', columns: ['store', 'median'], rows: [['SQLite', '28,290']] };
    const other: ResultTable = { title: 'Other', columns: ['a', 'b'], rows: [['x', '1']] };
    expect(compareRounds([[writes, other]], [[writes]])).toEqual([{ table: 'Writes', label: 'SQLite', column: 'median', base: 28290, current: 28290, ratio: 1 }]);
  });

  it('reads a table of measures as rows, each cell that starts with a number a figure, goals and blanks skipped', () => {
    const measures = (write: string): ResultTable => ({ title: '100k', columns: ['measure', 'goal', 'markdown', 'MiniSearch'], rows: [['writes (k/s)', '≥ 10', write, '12.1 (addAll)'], ['open (ms)', '≤ 100', '24.1', '']] });
    expect(compareRounds([[measures('10.1 (100 µs CPU per record)')]], [[measures('8.2 (125 µs CPU per record)')]])).toEqual([
      { table: '100k', label: 'writes (k/s) · markdown', column: 'figure', base: 10.1, current: 8.2, ratio: 8.2 / 10.1 },
      { table: '100k', label: 'writes (k/s) · MiniSearch', column: 'figure', base: 12.1, current: 12.1, ratio: 1 },
      { table: '100k', label: 'open (ms) · markdown', column: 'figure', base: 24.1, current: 24.1, ratio: 1 },
    ]);
  });

  it('finds the median of an odd and an even count, and none of nothing', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });
});
