import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { formatNumber, median, percentile, type BenchTable } from './bench-harness';

/** How many rounds to run (an even number: half in each order), and how many calls each half of a round makes. */
export interface OverheadOptions {
  rounds: number;
  callsPerRound: number;
  warmupCalls: number;
}

/** What an adapter adds over its SDK, measured in paired rounds. */
export interface OverheadMeasurement {
  /** Medians over rounds of the mean time per call, in µs. */
  directWallMicroseconds: number;
  adapterWallMicroseconds: number;
  directCpuMicroseconds: number;
  adapterCpuMicroseconds: number;
  /** The median over round pairs of (adapter ÷ direct − 1) in CPU time, in percent: the headline figure. */
  cpuOverheadPercent: number;
  /** Its 25th and 75th percentiles over round pairs. */
  cpuOverheadQuartiles: [number, number];
  /**
   * A 95 % interval of the headline median: the 2.5th and 97.5th percentiles of the medians
   * of 2000 bootstrap resamples of the round pairs (seeded, so a rerun on the same rounds agrees).
   */
  cpuOverheadInterval95: [number, number];
  /** The median over round pairs of (adapter − direct) CPU per call, in µs: what the adapter adds in absolute terms. */
  cpuAddedMicroseconds: number;
  /** A 95 % bootstrap interval of that median, like `cpuOverheadInterval95`. */
  cpuAddedInterval95: [number, number];
  /**
   * Whether the 5 % target holds: `met` when the whole interval is at or below 5 %, `missed`
   * when it lies entirely above, `undecided` when it straddles 5 % (more rounds could tell).
   */
  target: 'met' | 'missed' | 'undecided';
  /** The same in wall time. */
  wallOverheadPercent: number;
  rounds: number;
  callsPerRound: number;
  loadAverage: number[];
}

/** The target on query and list, in percent of the SDK's CPU time. */
export const overheadTargetPercent = 5;

/** A small seeded generator (mulberry32), so the bootstrap interval is reproducible. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The 2.5th and 97.5th percentiles of the median over bootstrap resamples of `values`. */
export function bootstrapMedianInterval(values: number[], resamples = 2000, seed = 1): [number, number] {
  const random = seededRandom(seed);
  const medians: number[] = [];
  const sample = new Array<number>(values.length);
  for (let resample = 0; resample < resamples; resample += 1) {
    for (let index = 0; index < values.length; index += 1) sample[index] = values[Math.floor(random() * values.length)]!;
    medians.push(median(sample));
  }
  return [percentile(medians, 2.5), percentile(medians, 97.5)];
}

/** The verdict on the target for a 95 % interval of the overhead. */
export function overheadVerdict([low, high]: [number, number]): OverheadMeasurement['target'] {
  if (high <= overheadTargetPercent) return 'met';
  return low > overheadTargetPercent ? 'missed' : 'undecided';
}

/**
 * Times `calls` sequential calls. No collection is forced between runs: a full collection
 * before each run made the heap regrow inside the timed run, which added half to both variants'
 * CPU and more to the one that allocates more. In steady state each run pays for the
 * collections its own allocations bring due, and the median over round pairs evens out which
 * run a collection happens to land in.
 */
async function timeCalls(run: () => Promise<unknown>, calls: number): Promise<RunTiming> {
  const startedCpu = process.cpuUsage();
  const started = performance.now();
  for (let call = 0; call < calls; call += 1) await run();
  const wall = ((performance.now() - started) * 1000) / calls;
  const usedCpu = process.cpuUsage(startedCpu);
  return { wall, cpu: (usedCpu.user + usedCpu.system) / calls };
}

/** One timed run: the mean wall and CPU time per call, in µs. */
export interface RunTiming {
  wall: number;
  cpu: number;
}

/**
 * The per-pair figures of paired rounds, where round `2k` ran the SDK first and round `2k + 1`
 * ran the adapter first. The first run of a round can be faster or slower than the second (a
 * collection falling due, warm caches), and over single rounds that shows up as two clusters
 * of ratios whose median lands in whichever cluster has one round more. Summing each pair's
 * two rounds cancels the position, so an SDK-against-SDK run reads 0 %.
 */
export function summarizeRoundPairs(
  direct: RunTiming[],
  adapter: RunTiming[],
): { cpuRatios: number[]; cpuAdded: number[]; wallRatios: number[] } {
  const pairs = Math.floor(Math.min(direct.length, adapter.length) / 2);
  const cpuRatios: number[] = [];
  const cpuAdded: number[] = [];
  const wallRatios: number[] = [];
  for (let pair = 0; pair < pairs; pair += 1) {
    const [first, second] = [2 * pair, 2 * pair + 1];
    const directCpu = direct[first]!.cpu + direct[second]!.cpu;
    const adapterCpu = adapter[first]!.cpu + adapter[second]!.cpu;
    cpuRatios.push((adapterCpu / directCpu - 1) * 100);
    cpuAdded.push((adapterCpu - directCpu) / 2);
    wallRatios.push(((adapter[first]!.wall + adapter[second]!.wall) / (direct[first]!.wall + direct[second]!.wall) - 1) * 100);
  }
  return { cpuRatios, cpuAdded, wallRatios };
}

/**
 * Measures the adapter against the SDK in paired rounds: each round times a run of direct
 * calls and a run of adapter calls back to back (in alternating order), and the overhead is
 * the median of the ratios of round pairs. Pairing cancels the slow drifts of a shared machine
 * (another process starting, CPU frequency) that comparing two separate medians lets in, and
 * CPU time of this process leaves out the time other processes hold the cores.
 */
export async function measureOverhead(
  variants: OverheadVariants,
  options: OverheadOptions,
): Promise<OverheadMeasurement> {
  for (let call = 0; call < options.warmupCalls; call += 1) {
    await variants.direct();
    await variants.adapter();
  }
  const direct: RunTiming[] = [];
  const adapter: RunTiming[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    if (round % 2 === 0) {
      direct.push(await timeCalls(variants.direct, options.callsPerRound));
      adapter.push(await timeCalls(variants.adapter, options.callsPerRound));
    } else {
      adapter.push(await timeCalls(variants.adapter, options.callsPerRound));
      direct.push(await timeCalls(variants.direct, options.callsPerRound));
    }
  }
  const { cpuRatios, cpuAdded, wallRatios } = summarizeRoundPairs(direct, adapter);
  const interval = bootstrapMedianInterval(cpuRatios);
  return {
    directWallMicroseconds: median(direct.map((timing) => timing.wall)),
    adapterWallMicroseconds: median(adapter.map((timing) => timing.wall)),
    directCpuMicroseconds: median(direct.map((timing) => timing.cpu)),
    adapterCpuMicroseconds: median(adapter.map((timing) => timing.cpu)),
    cpuOverheadPercent: median(cpuRatios),
    cpuOverheadQuartiles: [percentile(cpuRatios, 25), percentile(cpuRatios, 75)],
    cpuOverheadInterval95: interval,
    cpuAddedMicroseconds: median(cpuAdded),
    cpuAddedInterval95: bootstrapMedianInterval(cpuAdded),
    target: overheadVerdict(interval),
    wallOverheadPercent: median(wallRatios),
    rounds: options.rounds,
    callsPerRound: options.callsPerRound,
    loadAverage: loadavg(),
  };
}

/** The variants of one operation: the SDK called directly, and the same call through the adapter. */
export type OverheadVariants = { direct: () => Promise<unknown>; adapter: () => Promise<unknown> };

/** Measures every operation in turn, records each under `figures["<label>: <operation>"]`, and returns the rows. */
export async function measureOperations(
  operations: Record<string, OverheadVariants>,
  options: OverheadOptions,
  figures: Record<string, unknown>,
  label: string,
): Promise<Array<[string, OverheadMeasurement]>> {
  const rows: Array<[string, OverheadMeasurement]> = [];
  for (const [operation, variants] of Object.entries(operations)) {
    const measurement = await measureOverhead(variants, options);
    figures[`${label}: ${operation}`] = measurement;
    rows.push([operation, measurement]);
  }
  return rows;
}

/** Columns of the overhead tables, the same for every hosted adapter. */
export const overheadColumns = [
  'operation',
  'CPU: SDK directly',
  'CPU: adapter',
  'adapter adds (CPU)',
  'CPU overhead (median of paired rounds)',
  '95 % interval of that median',
  'interquartile range of pairs',
  'wall overhead',
  `target ≤ ${overheadTargetPercent} %`,
];

/** One row of an overhead table. */
export function overheadRow(operation: string, measurement: OverheadMeasurement): string[] {
  const [low, high] = measurement.cpuOverheadQuartiles;
  const [intervalLow, intervalHigh] = measurement.cpuOverheadInterval95;
  return [
    operation,
    formatNumber(measurement.directCpuMicroseconds, 0),
    formatNumber(measurement.adapterCpuMicroseconds, 0),
    formatNumber(measurement.cpuAddedMicroseconds, 0),
    `${formatNumber(measurement.cpuOverheadPercent, 1)} %`,
    `${formatNumber(intervalLow, 1)} to ${formatNumber(intervalHigh, 1)} %`,
    `${formatNumber(low, 1)} to ${formatNumber(high, 1)} %`,
    `${formatNumber(measurement.wallOverheadPercent, 1)} %`,
    measurement.target,
  ];
}

/** The notes every overhead table shares: how to read it. */
export function overheadNotes(measurements: OverheadMeasurement[]): string[] {
  const first = measurements[0];
  const load = measurements.map((measurement) => formatNumber(measurement.loadAverage[0] ?? 0, 1)).join(', ');
  return [
    `µs per call. ${first?.rounds ?? 0} rounds of ${first?.callsPerRound ?? 0} calls per variant; in each round the SDK calls and the adapter calls run back to back, and consecutive rounds swap the order. Each pair of rounds (one in each order) gives one CPU ratio, which cancels any advantage of running first or second; the headline is the median over pairs, and "adapter adds" is the median of the pairs' differences per call. The 95 % interval of the median comes from 2000 bootstrap resamples of the pairs; the interquartile range shows how far single pairs spread.`,
    `The target (${overheadTargetPercent} % or less) is \`met\` when the whole interval lies at or below it, \`missed\` when the whole interval lies above it, and \`undecided\` when the interval straddles it.`,
    `CPU time is user plus system time of this one process, which holds the SDK, msw, the fake provider and the adapter; wall time also counts the time other processes held the two cores (1-minute load average at the end of each row: ${load}).`,
  ];
}

/** A table of overhead rows with the shared notes and the benchmark's own notes. */
export function overheadTable(title: string, rows: Array<[string, OverheadMeasurement]>, notes: string[]): BenchTable {
  return {
    title,
    columns: overheadColumns,
    rows: rows.map(([operation, measurement]) => overheadRow(operation, measurement)),
    notes: [...notes, ...overheadNotes(rows.map(([, measurement]) => measurement))],
  };
}
