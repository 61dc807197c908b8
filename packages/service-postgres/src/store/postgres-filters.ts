import type {
  MemoryExtractionJobFilter,
  MemoryHookDeliveryFilter,
  MemoryOperationFilter,
} from '@memplane/service';

/** A table with the conditions and positional parameters of a filter. Values are always bound, never spliced. */
export interface FilterQuery {
  /** The unqualified table name. */
  table: string;
  /** Conditions joined with AND. */
  where: string[];
  /** The values of `$1`, `$2`, … in order. */
  values: unknown[];
}

/** Adds a bound value and returns its placeholder. */
export function bind(query: FilterQuery, value: unknown): string {
  query.values.push(value);
  return `$${query.values.length}`;
}

function equalities(table: string, companyId: string, columns: Array<[column: string, value: unknown]>): FilterQuery {
  const query: FilterQuery = { table, where: [], values: [] };
  query.where.push(`company_id = ${bind(query, companyId)}`);
  for (const [column, value] of columns) {
    if (value !== undefined) query.where.push(`${column} = ${bind(query, value)}`);
  }
  return query;
}

/** The operation log filter: exact matches, the run as scope run or heartbeat run, and a date range. */
export function operationFilterQuery(filter: MemoryOperationFilter): FilterQuery {
  const query = equalities('memory_operations', filter.companyId, [
    ['binding_id', filter.bindingId],
    ['agent_id', filter.agentId],
    ['issue_id', filter.issueId],
    ['project_id', filter.projectId],
    ['source_kind', filter.sourceKind],
    ['operation', filter.operation],
    ['status', filter.status],
  ]);
  if (filter.runId !== undefined) {
    const run = bind(query, filter.runId);
    query.where.push(`(run_id = ${run} OR heartbeat_run_id = ${run})`);
  }
  if (filter.from !== undefined) query.where.push(`created_at >= ${bind(query, filter.from)}::timestamptz`);
  if (filter.to !== undefined) query.where.push(`created_at < ${bind(query, filter.to)}::timestamptz`);
  return query;
}

/** The hook delivery filter. */
export function deliveryFilterQuery(filter: MemoryHookDeliveryFilter): FilterQuery {
  return equalities('memory_hook_deliveries', filter.companyId, [
    ['hook_kind', filter.hookKind],
    ['status', filter.status],
    ['hook_id', filter.hookId],
  ]);
}

/** The extraction job filter; `statuses` matches any of them. */
export function jobFilterQuery(filter: MemoryExtractionJobFilter): FilterQuery {
  const query = equalities('memory_extraction_jobs', filter.companyId, [
    ['binding_id', filter.bindingId],
    ['hook_kind', filter.hookKind],
  ]);
  if (filter.statuses !== undefined) query.where.push(`status = ANY(${bind(query, filter.statuses)}::text[])`);
  return query;
}
