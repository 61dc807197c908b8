import type { MemoryOperationEntry, MemoryOperationFilter } from '@memplane/service';
import type { PostgresConnection, Queryable } from './postgres-connection';
import { bind, type FilterQuery } from './postgres-filters';
import { operationColumns, operationToRecord, recordsetInsert } from './postgres-rows';

/** Operation appends that keep `memory_operation_hours`, and date filters narrowed by it. */
export interface OperationHours {
  /** Appends operations and widens the position span of their hours, in one statement (on `client` inside a transaction). */
  append(entries: MemoryOperationEntry[], client?: Queryable): Promise<void>;
  /**
   * Adds the position range a date filter can match: from the smallest position of the hours at
   * or after `from` to the largest of the hours up to `to`. Exact whatever order entries were
   * appended in; a page then scans positions only where the range lies, not from the newest.
   */
  narrow(query: FilterQuery, filter: Pick<MemoryOperationFilter, 'companyId' | 'from' | 'to'>, client?: Queryable): Promise<FilterQuery>;
}

const hourOf = (value: string) => `date_trunc('hour', ${value}::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/** Creates the hour bookkeeping of one store. */
export function createOperationHours(connection: PostgresConnection, table: (name: string) => string): OperationHours {
  const hours = table('memory_operation_hours');
  // Hours are upserted in key order, so concurrent appends lock them in the same order.
  const appendSql = `WITH inserted AS (
      ${recordsetInsert(table('memory_operations'), operationColumns)}
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
      const values = [JSON.stringify(entries.map(operationToRecord))];
      if (client === undefined) await connection.query(appendSql, values, 'append-operations');
      else await client.query(appendSql, values);
    },

    async narrow(query, filter, client) {
      if (filter.from === undefined && filter.to === undefined) return query;
      const values: unknown[] = [filter.companyId];
      const low = filter.from === undefined ? 'NULL' : `(SELECT min(min_position) FROM ${hours} WHERE company_id = $1 AND hour >= ${hourOf(`$${values.push(filter.from)}`)})`;
      const high = filter.to === undefined ? 'NULL' : `(SELECT max(max_position) FROM ${hours} WHERE company_id = $1 AND hour <= ${hourOf(`$${values.push(filter.to)}`)})`;
      const boundsSql = `SELECT ${low} AS low, ${high} AS high`;
      const [bounds] =
        client === undefined
          ? await connection.query<{ low: string | null; high: string | null }>(boundsSql, values)
          : (await client.query<{ low: string | null; high: string | null }>(boundsSql, values)).rows;
      const narrowed: FilterQuery = { ...query, where: [...query.where], values: [...query.values] };
      if ((filter.from !== undefined && bounds?.low === null) || (filter.to !== undefined && bounds?.high === null)) {
        narrowed.where.push('false');
        return narrowed;
      }
      if (bounds?.low !== null && bounds?.low !== undefined) narrowed.where.push(`position >= ${bind(narrowed, Number(bounds.low))}`);
      if (bounds?.high !== null && bounds?.high !== undefined) narrowed.where.push(`position <= ${bind(narrowed, Number(bounds.high))}`);
      return narrowed;
    },
  };
}
