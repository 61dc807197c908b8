import type { MemoryCostFilter } from '../memory-accounting-records';
import type { MemoryExtractionJobFilter, MemoryHookDeliveryFilter, MemoryOperationFilter } from '../memory-service-records';

/** How a store's SQL spells a bound value. */
export interface StoreSqlDialect {
  /**
   * The placeholder of the value just bound, the `count`-th of the query: `?` on SQLite (values
   * bind in the order their placeholders appear), `$count` on Postgres.
   */
  placeholder(count: number): string;
  /** The placeholder of a time, as the store compares it with a time column. */
  time(placeholder: string): string;
}

/** SQLite: anonymous `?` placeholders, times compared as ISO 8601 text. */
export const sqliteDialect: StoreSqlDialect = { placeholder: () => '?', time: (placeholder) => placeholder };

/** Postgres: numbered `$n` placeholders, times cast to `timestamptz`. */
export const postgresDialect: StoreSqlDialect = { placeholder: (count) => `$${count}`, time: (placeholder) => `${placeholder}::timestamptz` };

/**
 * A table with the conditions of a filter and their values. Values are always bound, never
 * spliced; conditions are joined with AND in order, and each value is bound where it is used
 * (on SQLite, the order of `values` is the order of the placeholders in the text).
 */
export interface StoreFilterQuery {
  /** The unqualified table name. */
  table: string;
  /** Conditions joined with AND. */
  where: string[];
  /** The bound values, in placeholder order. */
  values: unknown[];
  /** How placeholders are spelled. */
  dialect: StoreSqlDialect;
}

/** Binds a value and returns its placeholder. */
export function bindValue(query: StoreFilterQuery, value: unknown): string {
  query.values.push(value);
  return query.dialect.placeholder(query.values.length);
}

/** A copy that can take more conditions without changing `query`. */
export function copyFilterQuery(query: StoreFilterQuery): StoreFilterQuery {
  return { ...query, where: [...query.where], values: [...query.values] };
}

/** Conditions on the company and on each column whose value is defined. */
export function equalityQuery(
  dialect: StoreSqlDialect,
  table: string,
  companyId: string,
  columns: ReadonlyArray<readonly [column: string, value: unknown]> = [],
): StoreFilterQuery {
  const query: StoreFilterQuery = { table, where: [], values: [], dialect };
  query.where.push(`company_id = ${bindValue(query, companyId)}`);
  for (const [column, value] of columns) if (value !== undefined) query.where.push(`${column} = ${bindValue(query, value)}`);
  return query;
}

/** The operation log filter: exact matches (the actor's id and kind among them), the run as scope run or heartbeat run, and a date range. */
export function operationFilterQuery(dialect: StoreSqlDialect, filter: MemoryOperationFilter): StoreFilterQuery {
  const query = equalityQuery(dialect, 'memory_operations', filter.companyId, [
    ['binding_id', filter.bindingId],
    ['agent_id', filter.agentId],
    ['actor_id', filter.actorId],
    ['actor_kind', filter.actorKind],
    ['issue_id', filter.issueId],
    ['project_id', filter.projectId],
    ['source_kind', filter.sourceKind],
    ['operation', filter.operation],
    ['status', filter.status],
  ]);
  if (filter.runId !== undefined) {
    query.where.push(`(run_id = ${bindValue(query, filter.runId)} OR heartbeat_run_id = ${bindValue(query, filter.runId)})`);
  }
  if (filter.from !== undefined) query.where.push(`created_at >= ${dialect.time(bindValue(query, filter.from))}`);
  if (filter.to !== undefined) query.where.push(`created_at < ${dialect.time(bindValue(query, filter.to))}`);
  return query;
}

/** The hook delivery filter. */
export function deliveryFilterQuery(dialect: StoreSqlDialect, filter: MemoryHookDeliveryFilter): StoreFilterQuery {
  return equalityQuery(dialect, 'memory_hook_deliveries', filter.companyId, [
    ['hook_kind', filter.hookKind],
    ['status', filter.status],
    ['hook_id', filter.hookId],
  ]);
}

/** The extraction job filter; `statuses` matches any of them (none matches nothing). */
export function jobFilterQuery(dialect: StoreSqlDialect, filter: MemoryExtractionJobFilter): StoreFilterQuery {
  const query = equalityQuery(dialect, 'memory_extraction_jobs', filter.companyId, [
    ['binding_id', filter.bindingId],
    ['hook_kind', filter.hookKind],
  ]);
  if (filter.statuses !== undefined) {
    const placeholders = filter.statuses.map((status) => bindValue(query, status));
    query.where.push(placeholders.length === 0 ? '1 = 0' : `status IN (${placeholders.join(', ')})`);
  }
  return query;
}

/** A cost or finance event filter: the company, exact matches, and `occurred_at` in the date range. */
export function eventFilterQuery(
  dialect: StoreSqlDialect,
  table: 'cost_events' | 'finance_events',
  filter: MemoryCostFilter,
  columns: ReadonlyArray<readonly [column: string, value: unknown]> = [],
): StoreFilterQuery {
  const query = equalityQuery(dialect, table, filter.companyId, columns);
  if (filter.from !== undefined) query.where.push(`occurred_at >= ${dialect.time(bindValue(query, filter.from))}`);
  if (filter.to !== undefined) query.where.push(`occurred_at < ${dialect.time(bindValue(query, filter.to))}`);
  return query;
}

/** Per-binding, per-operation counts of the operations a (date-narrowed) filter matches; `table` is the qualified table. */
export function countOperationsSql(query: StoreFilterQuery, table = 'memory_operations'): string {
  return `SELECT binding_id, binding_key, operation,
      SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
      SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
      COALESCE(SUM(dropped_out_of_scope), 0) AS dropped
    FROM ${table} WHERE ${query.where.join(' AND ')}
    GROUP BY binding_id, binding_key, operation
    ORDER BY binding_key NULLS FIRST, operation`;
}
