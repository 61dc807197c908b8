import type { MemoryOperationEntry, MemoryOperationFilter } from '../memory-service-records';
import { bindValue, copyFilterQuery, type StoreFilterQuery } from '../support/store-filters';
import { operationColumns, writeOperationValues } from '../support/operation-rows';
import { batchInsertSql, batchParameters } from './postgres-batch-insert';
import type { PostgresConnection, Queryable } from './postgres-connection';

/** Operation appends that keep `memory_operation_hours`, and date filters narrowed by it. */
export interface OperationHours {
  /** Appends operations and widens the position span of their hours, in one statement (on `client` inside a transaction). */
  append(entries: MemoryOperationEntry[], client?: Queryable): Promise<void>;
  /**
   * Adds the position range a date filter can match: from the smallest position of the hours at
   * or after `from` to the largest of the hours up to `to`. Exact whatever order entries were
   * appended in; a page then scans positions only where the range lies, not from the newest.
   */
  narrow(query: StoreFilterQuery, filter: Pick<MemoryOperationFilter, 'companyId' | 'from' | 'to'>): StoreFilterQuery;
}

const hourOf = (value: string) => `date_trunc('hour', ${value}::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/** Creates the hour bookkeeping of one store. */
export function createOperationHours(connection: PostgresConnection, table: (name: string) => string): OperationHours {
  const hours = table('memory_operation_hours');
  // Hours are upserted in key order, so concurrent appends lock them in the same order.
  const appendSql = `WITH inserted AS (
      ${batchInsertSql(table('memory_operations'), operationColumns)}
      RETURNING company_id, position, created_at
    )
    INSERT INTO ${hours} AS known (company_id, hour, min_position, max_position)
    SELECT company_id, ${hourOf('created_at')}, min(position), max(position) FROM inserted GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (company_id, hour) DO UPDATE SET
      min_position = LEAST(known.min_position, excluded.min_position),
      max_position = GREATEST(known.max_position, excluded.max_position)`;

  return {
    async append(entries, client) {
      if (entries.length === 0) return;
      const width = operationColumns.length;
      const rows = new Array<unknown>(entries.length * width);
      entries.forEach((entry, row) => writeOperationValues(entry, rows, row * width));
      const values = batchParameters(rows, entries.length, width);
      if (client === undefined) await connection.query(appendSql, values, 'append-operations');
      else await client.query(appendSql, values);
    },

    narrow(query, filter) {
      if (filter.from === undefined && filter.to === undefined) return query;
      // Scalar subqueries: Postgres computes each bound once, before the index scan, in the same round trip.
      // A missing bound (no hour at all in the range) is NULL, and a comparison with NULL matches nothing.
      const narrowed = copyFilterQuery(query);
      const company = bindValue(narrowed, filter.companyId);
      if (filter.from !== undefined) {
        narrowed.where.push(
          `position >= (SELECT min(min_position) FROM ${hours} WHERE company_id = ${company} AND hour >= ${hourOf(bindValue(narrowed, filter.from))})`,
        );
      }
      if (filter.to !== undefined) {
        narrowed.where.push(
          `position <= (SELECT max(max_position) FROM ${hours} WHERE company_id = ${company} AND hour <= ${hourOf(bindValue(narrowed, filter.to))})`,
        );
      }
      return narrowed;
    },
  };
}
