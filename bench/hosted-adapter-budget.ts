import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'msw';
import { formatNumber, median, percentile, type BenchTable } from './bench-harness';

/**
 * The performance budget of the hosted adapters: the adapter's own CPU per call (its code,
 * core's validation, and the timeout and abort every call carries), measured on replayed
 * responses so that no socket, HTTP parser or fake is in the loop. What a real round trip
 * costs is the provider's, and tens of milliseconds of it would drown any ratio.
 */

/** The budget per operation, in µs of CPU per call. */
export const adapterCpuBudgets = { 'query (topK 10)': 250, 'list (limit 50)': 600 } as const;

/** One budgeted operation of a benchmark. */
export type BudgetedOperation = keyof typeof adapterCpuBudgets;

/** How many rounds to run (an even number: half in each order), and how many calls each run makes. */
export interface BudgetOptions {
  rounds: number;
  callsPerRound: number;
  warmupCalls: number;
}

/** The SDK call made directly, and the same call through the adapter, both on replayed responses. */
export interface BudgetVariants {
  direct: () => Promise<unknown>;
  adapter: () => Promise<unknown>;
}

/** What the adapter costs on top of its SDK, per call. */
export interface BudgetMeasurement {
  /** Medians over rounds of the mean CPU time per call, in µs. */
  directCpuMicroseconds: number;
  adapterCpuMicroseconds: number;
  /** The median over round pairs of (adapter − direct) CPU per call, in µs: the budgeted figure. */
  addedCpuMicroseconds: number;
  /** A 95 % interval of that median: percentiles of 2000 seeded bootstrap resamples of the round pairs. */
  addedCpuInterval95: [number, number];
  budgetMicroseconds: number;
  /** `met` when the whole interval is within the budget, `missed` when it lies above, `undecided` when it straddles it. */
  verdict: 'met' | 'missed' | 'undecided';
  rounds: number;
  callsPerRound: number;
  loadAverage: number[];
}

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

/** The verdict for a 95 % interval of the added CPU against a budget. */
export function budgetVerdict([low, high]: [number, number], budget: number): BudgetMeasurement['verdict'] {
  if (high <= budget) return 'met';
  return low > budget ? 'missed' : 'undecided';
}

/** One timed run: the mean CPU time per call of this process, in µs. */
async function cpuPerCall(run: () => Promise<unknown>, calls: number): Promise<number> {
  const started = process.cpuUsage();
  for (let call = 0; call < calls; call += 1) await run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

/**
 * What the adapter adds per call, from paired rounds where round `2k` ran the SDK first and
 * round `2k + 1` the adapter first. Summing each pair's two rounds cancels whatever running
 * first costs (a collection falling due, warm caches), so the SDK against itself reads 0.
 */
export function addedPerPair(direct: number[], adapter: number[]): number[] {
  const pairs = Math.floor(Math.min(direct.length, adapter.length) / 2);
  return Array.from({ length: pairs }, (_, pair) => (adapter[2 * pair]! + adapter[2 * pair + 1]! - direct[2 * pair]! - direct[2 * pair + 1]!) / 2);
}

/** Measures one operation against its budget in paired rounds. */
export async function measureAgainstBudget(variants: BudgetVariants, budgetMicroseconds: number, options: BudgetOptions): Promise<BudgetMeasurement> {
  for (let call = 0; call < options.warmupCalls; call += 1) {
    await variants.direct();
    await variants.adapter();
  }
  const direct: number[] = [];
  const adapter: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    if (round % 2 === 0) {
      direct.push(await cpuPerCall(variants.direct, options.callsPerRound));
      adapter.push(await cpuPerCall(variants.adapter, options.callsPerRound));
    } else {
      adapter.push(await cpuPerCall(variants.adapter, options.callsPerRound));
      direct.push(await cpuPerCall(variants.direct, options.callsPerRound));
    }
  }
  const added = addedPerPair(direct, adapter);
  const interval = bootstrapMedianInterval(added);
  return {
    directCpuMicroseconds: median(direct),
    adapterCpuMicroseconds: median(adapter),
    addedCpuMicroseconds: median(added),
    addedCpuInterval95: interval,
    budgetMicroseconds,
    verdict: budgetVerdict(interval, budgetMicroseconds),
    rounds: options.rounds,
    callsPerRound: options.callsPerRound,
    loadAverage: loadavg(),
  };
}

/** Measures every budgeted operation, records each under `figures[operation]`, and returns the table. */
export async function budgetTable(
  title: string,
  operations: Record<BudgetedOperation, BudgetVariants>,
  options: BudgetOptions,
  figures: Record<string, unknown>,
  notes: string[],
): Promise<BenchTable> {
  const rows: string[][] = [];
  for (const operation of Object.keys(operations) as BudgetedOperation[]) {
    const measured = await measureAgainstBudget(operations[operation], adapterCpuBudgets[operation], options);
    figures[operation] = measured;
    const [low, high] = measured.addedCpuInterval95;
    rows.push([
      operation,
      formatNumber(measured.directCpuMicroseconds, 0),
      formatNumber(measured.adapterCpuMicroseconds, 0),
      `**${formatNumber(measured.addedCpuMicroseconds, 0)}**`,
      `${formatNumber(low, 0)} to ${formatNumber(high, 0)}`,
      `≤ ${measured.budgetMicroseconds}`,
      measured.verdict,
    ]);
  }
  return {
    title,
    columns: ['operation', 'SDK call, µs CPU', 'through the adapter, µs CPU', "adapter's own CPU, µs", '95 % interval', 'budget, µs', 'verdict'],
    rows,
    notes: [
      ...notes,
      'Replayed responses: each distinct request went once to the provider fake (intercepted by msw in the process) and was recorded; every timed call gets the recorded bytes back (`bench/replayed-responses.ts`), so both variants run the SDK\'s own request building and response parsing and nothing of a network or a fake.',
      `The adapter's own CPU is the median over ${options.rounds / 2} pairs of rounds (${options.callsPerRound} calls per run, the two variants back to back in alternating order) of what the adapter variant costs above the direct SDK call: its code, core's request and result validation, and the per-call timeout and abort signal under core \`callWithRetry\`. The interval is a seeded bootstrap of that median. The verdict is \`met\` when the whole interval is within the budget, \`missed\` when it lies above, \`undecided\` when it straddles it.`,
    ],
  };
}

/** Serves provider fake handlers through msw in this process, for the first (recorded) answer of each request. */
export async function interceptWithFake(handlers: RequestHandler[]): Promise<{ close(): void }> {
  const { setupServer } = await import('msw/node');
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return { close: () => server.close() };
}
