import { formatNumber, type BenchTable } from './bench-harness';
import { profileBreakdownTable, type CodeCategory } from './cpu-profile-breakdown';
import {
  measureOperations,
  overheadTable,
  overheadTargetPercent,
  type OverheadMeasurement,
  type OverheadOptions,
  type OverheadVariants,
} from './hosted-adapter-overhead';
import { transportNotes, type FakeTransport } from './provider-fake-transport';

/** What one hosted adapter benchmark measures over one transport. */
export interface TransportMeasurement {
  /** What is measured, such as `mem0 fake`; the tables are titled `<subject> over <transport>`. */
  subject: string;
  /** Added in parentheses to the overhead table's title, such as `120 records in scope`. */
  detail?: string;
  transport: FakeTransport;
  operations: Record<string, OverheadVariants>;
  options: OverheadOptions;
  /** The benchmark's own notes under the overhead table; the transport's note follows them. */
  notes: string[];
  /** How the CPU profile sorts code, the adapter and its SDK first. */
  categories: CodeCategory[];
  /** Calls of each variant the CPU profile samples. */
  profiledCalls: number;
  /** Where the raw figures go. */
  figures: Record<string, unknown>;
  /**
   * Over loopback HTTP: each operation's SDK call made bare and made the way the adapter makes
   * it (inside core `callWithRetry`, with the attempt's timeout and abort signal), so the cost of
   * the timeout and abort alone is measured apart from the rest of the adapter.
   */
  guardedOperations?: Record<string, OverheadVariants>;
}

/**
 * The tables of one transport: the timed overhead table, and over loopback HTTP (the
 * realistic transport) where the CPU time goes.
 */
export async function transportTables(measurement: TransportMeasurement): Promise<BenchTable[]> {
  const { subject, detail, transport, operations, figures } = measurement;
  const rows = await measureOperations(operations, measurement.options, figures, transport);
  if (transport === 'replayed responses') {
    return [
      addedCostTable(`What the adapter's own work costs: ${subject} with replayed responses`, 'adapter, replayed', rows, figures, [
        transportNotes[transport],
        'The adapter\'s abort signal costs only its creation here: a replayed answer never reaches undici or node:http, which add listeners to the signal of every request that carries one (the timeout-and-abort table above measures that over loopback).',
      ]),
    ];
  }
  const title = `${subject} over ${transport}`;
  const tables = [overheadTable(detail === undefined ? title : `${title} (${detail})`, rows, [...measurement.notes, transportNotes[transport]])];
  if (transport === 'loopback HTTP') {
    tables.push(await profileBreakdownTable(`Where the CPU time goes: ${title}`, operations, measurement.categories, measurement.profiledCalls, figures));
    if (measurement.guardedOperations !== undefined) {
      const guarded = await measureOperations(measurement.guardedOperations, measurement.options, figures, 'timeout and abort alone');
      tables.push(
        addedCostTable(`What the timeout and abort alone cost: ${title}`, 'SDK with timeout and abort', guarded, figures, [
          'The second variant is the same SDK call made the way the adapter makes it, and nothing else: inside core `callWithRetry`, whose attempt has a timer and an AbortController, with the signal on the request where the adapter passes one. Every hosted adapter must give each call a timeout, so this part of the overhead comes with the contract.',
        ]),
      );
    }
  }
  return tables;
}

/**
 * What a variant adds to the SDK call, in µs and as a share of the SDK call over loopback HTTP
 * measured earlier in the same run. A ratio to this table's own SDK call would say nothing
 * about the target when that call is cheap (replayed responses); the share of the loopback call
 * applies the target to the added part alone.
 */
function addedCostTable(
  title: string,
  variant: string,
  rows: Array<[string, OverheadMeasurement]>,
  figures: Record<string, unknown>,
  notes: string[],
): BenchTable {
  return {
    title,
    columns: ['operation', 'CPU: SDK directly', `CPU: ${variant}`, 'adds (CPU)', '95 % interval of that median', 'as a share of the SDK call over loopback HTTP'],
    rows: rows.map(([operation, measured]) => {
      const loopback = figures[`loopback HTTP: ${operation}`] as OverheadMeasurement | undefined;
      const [low, high] = measured.cpuAddedInterval95;
      const share = loopback === undefined ? '' : `${formatNumber((measured.cpuAddedMicroseconds / loopback.directCpuMicroseconds) * 100, 1)} %`;
      return [
        operation,
        formatNumber(measured.directCpuMicroseconds, 0),
        formatNumber(measured.adapterCpuMicroseconds, 0),
        formatNumber(measured.cpuAddedMicroseconds, 0),
        `${formatNumber(low, 0)} to ${formatNumber(high, 0)}`,
        share,
      ];
    }),
    notes: [
      ...notes,
      `µs per call, in paired rounds as above. The last column divides what the variant adds by the SDK's CPU per call in the loopback table: the ${overheadTargetPercent} % target applied to that part alone.`,
    ],
  };
}


