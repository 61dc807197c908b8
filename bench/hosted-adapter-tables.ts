import type { BenchTable } from './bench-harness';
import { profileBreakdownTable, type CodeCategory } from './cpu-profile-breakdown';
import { measureOperations, overheadTable, type OverheadOptions, type OverheadVariants } from './hosted-adapter-overhead';
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
  const title = `${subject} over ${transport}`;
  const tables = [overheadTable(detail === undefined ? title : `${title} (${detail})`, rows, [...measurement.notes, transportNotes[transport]])];
  if (transport === 'loopback HTTP') {
    tables.push(await profileBreakdownTable(`Where the CPU time goes: ${title}`, operations, measurement.categories, measurement.profiledCalls, figures));
  }
  return tables;
}
