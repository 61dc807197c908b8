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
}

/**
 * The tables of one transport: the timed overhead table, and over loopback HTTP (the
 * realistic transport) where the CPU time goes.
 */
export async function transportTables(measurement: TransportMeasurement): Promise<BenchTable[]> {
  const { subject, detail, transport, operations, figures } = measurement;
  const rows = await measureOperations(operations, measurement.options, figures, transport);
  if (transport === 'replayed responses') return [replayTable(subject, rows, figures, transportNotes[transport])];
  const title = `${subject} over ${transport}`;
  const tables = [overheadTable(detail === undefined ? title : `${title} (${detail})`, rows, [...measurement.notes, transportNotes[transport]])];
  if (transport === 'loopback HTTP') {
    tables.push(await profileBreakdownTable(`Where the CPU time goes: ${title}`, operations, measurement.categories, measurement.profiledCalls, figures));
  }
  return tables;
}

/**
 * With replayed responses the SDK call is cheap, so a ratio would say nothing about the target;
 * the table gives what the adapter adds in µs, and that as a share of the SDK call over loopback
 * HTTP measured earlier in the same run. Set beside the loopback table, it separates the
 * adapter's own work from what the same work costs amid a real round trip.
 */
function replayTable(subject: string, rows: Array<[string, OverheadMeasurement]>, figures: Record<string, unknown>, transportNote: string): BenchTable {
  return {
    title: `What the adapter's own work costs: ${subject} with replayed responses`,
    columns: [
      'operation',
      'CPU: SDK directly, replayed',
      'CPU: adapter, replayed',
      'adapter adds (CPU)',
      '95 % interval of that median',
      'as a share of the SDK call over loopback HTTP',
    ],
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
      transportNote,
      `µs per call, in paired rounds as above. The last column divides what the adapter adds here by the SDK's CPU per call in the loopback table: the ${overheadTargetPercent} % target applied to the adapter's own work alone. Where the loopback table reads more, the adapter runs the same code on the same bytes there, so the difference is what that code costs amid a real round trip (most likely colder caches and more garbage to collect), not other work.`,
    ],
  };
}
