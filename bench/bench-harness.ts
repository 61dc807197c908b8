import { performance } from 'node:perf_hooks';

/** One table a benchmark contributes to BENCHMARKS.md. */
export interface BenchTable {
  /** The table's heading. */
  title: string;
  /** Column names. */
  columns: string[];
  /** Rows of cells, already formatted. */
  rows: string[][];
  /** Notes printed under the table: what was measured and how. */
  notes?: string[];
}

/** What a benchmark returns: the tables for BENCHMARKS.md and the raw figures for its JSON file. */
export interface BenchResult {
  tables: BenchTable[];
  figures: Record<string, unknown>;
}

/** A benchmark under `bench/`. */
export interface Benchmark {
  /** The name used on the command line: `npm run bench <name>`. */
  name: string;
  /** The name its results are stored under, when options (`--records`) make it differ from `name`. */
  readonly resultName?: string;
  /** What it measures, one sentence. */
  description: string;
  run(): Promise<BenchResult>;
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The p-th percentile (0 to 100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/**
 * Times several variants of the same work, interleaved round by round so that noise on a
 * shared machine hits every variant alike. Returns, per variant, the median over rounds of
 * the mean wall time per call, and of the mean CPU time per call of this process (user plus
 * system), both in microseconds. CPU time is the steadier figure when other processes compete
 * for the cores; wall time includes waiting.
 */
export async function compareVariants(
  variants: Record<string, () => Promise<unknown>>,
  options: { rounds: number; callsPerRound: number; warmupCalls: number },
): Promise<
  Record<string, { medianMicroseconds: number; medianCpuMicroseconds: number; roundMicroseconds: number[] }>
> {
  const names = Object.keys(variants);
  for (const name of names) {
    for (let call = 0; call < options.warmupCalls; call += 1) await variants[name]!();
  }
  const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const startedCpu = process.cpuUsage();
      const started = performance.now();
      for (let call = 0; call < options.callsPerRound; call += 1) await variants[name]!();
      const elapsed = performance.now() - started;
      const usedCpu = process.cpuUsage(startedCpu);
      wall[name]!.push((elapsed * 1000) / options.callsPerRound);
      cpu[name]!.push((usedCpu.user + usedCpu.system) / options.callsPerRound);
    }
  }
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        medianMicroseconds: median(wall[name]!),
        medianCpuMicroseconds: median(cpu[name]!),
        roundMicroseconds: wall[name]!,
      },
    ]),
  );
}

/** Formats a number with a fixed count of decimals. */
export function formatNumber(value: number, decimals = 1): string {
  return value.toFixed(decimals);
}
