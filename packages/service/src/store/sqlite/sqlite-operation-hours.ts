import type { MemoryOperationEntry, MemoryOperationFilter } from '../memory-service-records';
import type { SqliteConnection } from './sqlite-connection';
import { bindValue, copyFilterQuery, type StoreFilterQuery } from '../support/store-filters';

/**
 * Widens the position span of the hours of operations just appended. Rows appended in one
 * transaction get consecutive positions ending at `lastPosition` (SQLite gives each new row
 * the largest rowid plus one), so the span of each (company, hour) is known without reading.
 */
export function recordOperationHours(connection: SqliteConnection, entries: MemoryOperationEntry[], lastPosition: number): void {
  const first = lastPosition - entries.length + 1;
  const spans = new Map<string, { companyId: string; hour: string; low: number; high: number }>();
  entries.forEach((entry, index) => {
    const hour = entry.createdAt.slice(0, 13);
    const key = `${entry.companyId}\u0000${hour}`;
    const position = first + index;
    const span = spans.get(key);
    if (span === undefined) spans.set(key, { companyId: entry.companyId, hour, low: position, high: position });
    else {
      span.low = Math.min(span.low, position);
      span.high = Math.max(span.high, position);
    }
  });
  const upsert = connection.prepare(
    `INSERT INTO memory_operation_hours (company_id, hour, min_position, max_position) VALUES (?, ?, ?, ?)
     ON CONFLICT (company_id, hour) DO UPDATE SET
       min_position = MIN(min_position, excluded.min_position), max_position = MAX(max_position, excluded.max_position)`,
  );
  for (const span of spans.values()) upsert.run(span.companyId, span.hour, span.low, span.high);
}

/**
 * Adds the position range a date filter can match: from the smallest position of the hours at
 * or after `from` to the largest of the hours up to `to`. Exact whatever order entries were
 * appended in; a page then scans positions only where the range lies, not from the newest.
 */
export function narrowToHours(
  connection: SqliteConnection,
  query: StoreFilterQuery,
  filter: Pick<MemoryOperationFilter, 'companyId' | 'from' | 'to'>,
): StoreFilterQuery {
  if (filter.from === undefined && filter.to === undefined) return query;
  const narrowed = copyFilterQuery(query);
  if (filter.from !== undefined) {
    const low = connection
      .prepare('SELECT MIN(min_position) AS position FROM memory_operation_hours WHERE company_id = ? AND hour >= ?')
      .get(filter.companyId, filter.from.slice(0, 13)) as { position: number | null };
    if (low.position === null) return { ...narrowed, where: [...narrowed.where, '0 = 1'] };
    narrowed.where.push(`position >= ${bindValue(narrowed, low.position)}`);
  }
  if (filter.to !== undefined) {
    const high = connection
      .prepare('SELECT MAX(max_position) AS position FROM memory_operation_hours WHERE company_id = ? AND hour <= ?')
      .get(filter.companyId, filter.to.slice(0, 13)) as { position: number | null };
    if (high.position === null) return { ...narrowed, where: [...narrowed.where, '0 = 1'] };
    narrowed.where.push(`position <= ${bindValue(narrowed, high.position)}`);
  }
  return narrowed;
}
