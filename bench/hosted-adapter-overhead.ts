import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { formatNumber, median, percentile, type BenchTable } from './bench-harness';

/** How many paired rounds to run, and how many calls each half of a round makes. */
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
  /** The median over rounds of (adapter ÷ direct − 1) in CPU time, in percent: the headline figure. */
  cpuOverheadPercent: number;
  /** Its 25th and 75th percentiles over rounds. */
  cpuOverheadQuartiles: [number, number];
  /** The same in wall time. */
  wallOverheadPercent: number;
  rounds: number;
  callsPerRound: number;
  loadAverage: number[];
}

/** `global.gc` when node runs with `--expose-gc` (the bench runner sets it). */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

async function timeCalls(run: () => Promise<unknown>, calls: number): Promise<{ wall: number; cpu: number }> {
  // Each run starts on a collected heap, so a major collection the other variant's garbage
  // made due lands in neither: each pays for what it allocates itself.
  collectGarbage?.();
  const startedCpu = process.cpuUsage();
  const started = performance.now();
  for (let call = 0; call < calls; call += 1) await run();
  const wall = ((performance.now() - started) * 1000) / calls;
  const usedCpu = process.cpuUsage(startedCpu);
  return { wall, cpu: (usedCpu.user + usedCpu.system) / calls };
}

/**
 * Measures the adapter against the SDK in paired rounds: each round times a run of direct
 * calls and a run of adapter calls back to back (in alternating order), and the overhead is
 * the median of the per-round ratios. Pairing cancels the slow drifts of a shared machine
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
  const direct: Array<{ wall: number; cpu: number }> = [];
  const adapter: Array<{ wall: number; cpu: number }> = [];
  for (let round = 0; round < options.rounds; round += 1) {
    if (round % 2 === 0) {
      direct.push(await timeCalls(variants.direct, options.callsPerRound));
      adapter.push(await timeCalls(variants.adapter, options.callsPerRound));
    } else {
      adapter.push(await timeCalls(variants.adapter, options.callsPerRound));
      direct.push(await timeCalls(variants.direct, options.callsPerRound));
    }
  }
  const cpuRatios = direct.map((pair, index) => ((adapter[index]!.cpu / pair.cpu) - 1) * 100);
  const wallRatios = direct.map((pair, index) => ((adapter[index]!.wall / pair.wall) - 1) * 100);
  return {
    directWallMicroseconds: median(direct.map((timing) => timing.wall)),
    adapterWallMicroseconds: median(adapter.map((timing) => timing.wall)),
    directCpuMicroseconds: median(direct.map((timing) => timing.cpu)),
    adapterCpuMicroseconds: median(adapter.map((timing) => timing.cpu)),
    cpuOverheadPercent: median(cpuRatios),
    cpuOverheadQuartiles: [percentile(cpuRatios, 25), percentile(cpuRatios, 75)],
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
  'CPU overhead (median of paired rounds)',
  'CPU overhead, interquartile range',
  'wall: SDK directly',
  'wall: adapter',
  'wall overhead',
];

/** One row of an overhead table. */
export function overheadRow(operation: string, measurement: OverheadMeasurement): string[] {
  const [low, high] = measurement.cpuOverheadQuartiles;
  return [
    operation,
    formatNumber(measurement.directCpuMicroseconds, 0),
    formatNumber(measurement.adapterCpuMicroseconds, 0),
    `${formatNumber(measurement.cpuOverheadPercent, 1)} %`,
    `${formatNumber(low, 1)} to ${formatNumber(high, 1)} %`,
    formatNumber(measurement.directWallMicroseconds, 0),
    formatNumber(measurement.adapterWallMicroseconds, 0),
    `${formatNumber(measurement.wallOverheadPercent, 1)} %`,
  ];
}

/** The notes every overhead table shares: how to read it. */
export function overheadNotes(measurements: OverheadMeasurement[]): string[] {
  const first = measurements[0];
  const load = measurements.map((measurement) => formatNumber(measurement.loadAverage[0] ?? 0, 1)).join(', ');
  return [
    `µs per call. ${first?.rounds ?? 0} paired rounds of ${first?.callsPerRound ?? 0} calls per variant; in each round the SDK calls and the adapter calls run back to back, in alternating order. The headline is the median over rounds of the per-round CPU ratio; the interquartile range shows its spread. The target is 5 % or less.`,
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
