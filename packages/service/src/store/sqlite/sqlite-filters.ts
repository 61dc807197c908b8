import type {
  MemoryExtractionJobFilter,
  MemoryHookDeliveryFilter,
  MemoryOperationFilter,
} from '../memory-service-records';

/** A table with the conditions and named parameters of a filter. Values are always bound, never spliced. */
export interface FilterQuery {
  table: string;
  where: string[];
  parameters: Record<string, unknown>;
}

function equalities(
  table: string,
  companyId: string,
  columns: Array<[column: string, value: unknown]>,
): FilterQuery {
  const where = ['company_id = @companyId'];
  const parameters: Record<string, unknown> = { companyId };
  for (const [column, value] of columns) {
    if (value === undefined) continue;
    where.push(`${column} = @${column}`);
    parameters[column] = value;
  }
  return { table, where, parameters };
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
    query.where.push('(run_id = @runId OR heartbeat_run_id = @runId)');
    query.parameters.runId = filter.runId;
  }
  if (filter.from !== undefined) {
    query.where.push('created_at >= @from');
    query.parameters.from = filter.from;
  }
  if (filter.to !== undefined) {
    query.where.push('created_at < @to');
    query.parameters.to = filter.to;
  }
  return query;
}

/** Per-binding, per-operation counts of the operations a (date-narrowed) filter matches. */
export function countOperationsQuery(query: FilterQuery): { sql: string; parameters: Record<string, unknown> } {
  return {
    sql: `SELECT binding_id, binding_key, operation,
            SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
            SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
            SUM(dropped_out_of_scope) AS dropped
          FROM memory_operations WHERE ${query.where.join(' AND ')}
          GROUP BY binding_id, binding_key, operation
          ORDER BY binding_key, operation`,
    parameters: query.parameters,
  };
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
  if (filter.statuses !== undefined) {
    const names = filter.statuses.map((_, index) => `@status${index}`);
    query.where.push(names.length === 0 ? '0 = 1' : `status IN (${names.join(', ')})`);
    filter.statuses.forEach((status, index) => {
      query.parameters[`status${index}`] = status;
    });
  }
  return query;
}
