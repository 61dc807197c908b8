/**
 * Pairs the result tables of one benchmark run at two revisions: each row is keyed by its label
 * columns (those before the figure compared), and the figure is the median over the rounds.
 */

/** A result table as `bench/run.ts` stores it. */
export interface ResultTable {
  title: string;
  columns: string[];
  rows: string[][];
}

/** One row of the comparison: the row's labels, the median figure at each revision, and their ratio. */
export interface ComparedRow {
  table: string;
  label: string;
  column: string;
  base: number | undefined;
  current: number | undefined;
  /** current / base, or undefined when either is missing. */
  ratio: number | undefined;
}

/** The figure a table is compared on: its `p50` or `median` column (the first there is), or none. */
export function comparedColumn(table: ResultTable): number {
  const index = table.columns.findIndex((column) => column === 'p50' || column === 'median');
  return index;
}

/** The median of numbers (the mean of the middle two for an even count), or undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The figures of one row label of one table, over the rounds. */
type Figures = Map<string, { table: string; label: string; column: string; values: number[] }>;

/** Adds one figure of a round under its table and label. */
function addFigure(figures: Figures, table: string, label: string, column: string, value: number): void {
  const key = `${table}\u0000${label}`;
  const entry = figures.get(key) ?? { table, label, column, values: [] };
  entry.values.push(value);
  figures.set(key, entry);
}

/** The figures of every round, by table title and row label. */
function figuresOf(rounds: readonly (readonly ResultTable[])[]): Figures {
  const figures: Figures = new Map();
  for (const tables of rounds) {
    for (const table of tables) {
      if (table.columns[0] === 'measure') {
        addMeasures(figures, table);
        continue;
      }
      const index = comparedColumn(table);
      if (index <= 0) continue;
      for (const row of table.rows) {
        const value = Number(String(row[index]).replace(/,/g, ''));
        if (Number.isFinite(value)) addFigure(figures, table.title, row.slice(0, index).join(' · '), table.columns[index] as string, value);
      }
    }
  }
  return figures;
}

/**
 * A table of measures as rows and systems as columns (markdown-performance): every cell that
 * starts with a number (`7.4 (133 µs CPU per record)` is 7.4) is a figure, labelled by its measure
 * and its column. Goals (`≤ 2`) start with no number and are skipped.
 */
function addMeasures(figures: Figures, table: ResultTable): void {
  for (const row of table.rows) {
    row.slice(1).forEach((cell, offset) => {
      const leading = /^\s*(-?[\d,]+(?:\.\d+)?)/.exec(String(cell));
      if (leading !== null) addFigure(figures, table.title, `${row[0]} · ${table.columns[offset + 1]}`, 'figure', Number((leading[1] as string).replace(/,/g, '')));
    });
  }
}

/** Every row of either revision, with the median of its figure over the rounds at each. */
export function compareRounds(baseRounds: readonly (readonly ResultTable[])[], currentRounds: readonly (readonly ResultTable[])[]): ComparedRow[] {
  const base = figuresOf(baseRounds);
  const current = figuresOf(currentRounds);
  const keys = [...new Set([...current.keys(), ...base.keys()])];
  return keys.map((key) => {
    const entry = (current.get(key) ?? base.get(key))!;
    const baseMedian = median(base.get(key)?.values ?? []);
    const currentMedian = median(current.get(key)?.values ?? []);
    return {
      table: entry.table,
      label: entry.label,
      column: entry.column,
      base: baseMedian,
      current: currentMedian,
      ratio: baseMedian === undefined || currentMedian === undefined || baseMedian === 0 ? undefined : currentMedian / baseMedian,
    };
  });
}

const figure = (value: number | undefined) => (value === undefined ? '–' : value >= 100 ? value.toFixed(0) : value.toFixed(1));

/** The comparison as Markdown tables, one per result table. */
export function renderComparison(rows: readonly ComparedRow[], baseRevision: string, currentRevision: string, rounds: number): string {
  const lines: string[] = [];
  for (const table of [...new Set(rows.map((row) => row.table))]) {
    const own = rows.filter((row) => row.table === table);
    lines.push(`### ${table}`, '', `| row | ${own[0]?.column} at ${baseRevision} | ${own[0]?.column} at ${currentRevision} | ratio |`, '|---|---|---|---|');
    for (const row of own) lines.push(`| ${row.label} | ${figure(row.base)} | ${figure(row.current)} | ${row.ratio === undefined ? '–' : `${row.ratio.toFixed(2)}×`} |`);
    lines.push('', `Medians of ${rounds} rounds per revision, the revisions alternating.`, '');
  }
  return lines.join('\n');
}
