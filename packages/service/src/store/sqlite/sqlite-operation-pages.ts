import type { MemoryOperationFilter, MemoryStorePage, MemoryStorePageRequest } from '../memory-service-records';
import { bindValue, copyFilterQuery, equalityQuery, operationFilterQuery, sqliteDialect, type StoreFilterQuery } from '../support/store-filters';
import type { SqliteConnection } from './sqlite-connection';
import { narrowToHours } from './sqlite-operation-hours';

type Row = Record<string, unknown>;

/** The filters an index serves, most selective first: the order that breaks ties between them. */
const indexedFilters = [
  ['issueId', 'issue_id', 'memory_operations_issue'],
  ['agentId', 'agent_id', 'memory_operations_agent'],
  ['actorId', 'actor_id', 'memory_operations_actor'],
  ['projectId', 'project_id', 'memory_operations_project'],
  ['sourceKind', 'source_kind', 'memory_operations_source_kind'],
  ['operation', 'operation', 'memory_operations_operation'],
  ['bindingId', 'binding_id', 'memory_operations_binding'],
  ['status', 'status', 'memory_operations_status'],
] as const;

/** Entries counted per candidate index at most: enough to tell a rare value from a common one. */
export const operationIndexProbeLimit = 2_000;

/**
 * The index a page of the operation log reads. Every index is (company_id, column, position),
 * so the page is read newest first from the index, the date range (a position range) bounds
 * it, and the other filters are checked on the entries it reads: the fewer entries the index
 * holds for its value, the fewer are read. With one indexed filter, its index; with several,
 * the one that holds fewest entries for its value (each counted in its index, up to
 * {@link operationIndexProbeLimit}), ties going to the usually rarer column.
 *
 * The choice is made here, not left to SQLite's planner: without statistics (the store never
 * runs ANALYZE) the planner cannot tell a rare value from a common one, and with them it still
 * cannot tell `failed` from `succeeded` or one binding from another.
 */
export function chooseSqliteOperationIndex(connection: SqliteConnection, filter: Omit<MemoryOperationFilter, 'runId'>, after?: number): string {
  const candidates = indexedFilters.filter(([field]) => filter[field] !== undefined);
  if (candidates.length === 0) return 'memory_operations_company';
  if (candidates.length === 1) return candidates[0]![2];
  let best: { index: string; matches: number } | undefined;
  for (const [field, column, index] of candidates) {
    // The company, the position range of the dates and the cursor: all in the index, no table read.
    const probe = narrowToHours(connection, equalityQuery(sqliteDialect, 'memory_operations', filter.companyId, [[column, filter[field]]]), filter);
    if (after !== undefined) probe.where.push(`position < ${bindValue(probe, after)}`);
    const { matches } = connection
      .prepare(`SELECT count(*) AS matches FROM (SELECT 1 FROM memory_operations INDEXED BY ${index} WHERE ${probe.where.join(' AND ')} LIMIT ${operationIndexProbeLimit})`)
      .get(probe.values) as { matches: number };
    if (best === undefined || matches < best.matches) best = { index, matches };
  }
  return best!.index;
}

/** The statements of one page of the log: one through the chosen index, or two for a run. */
function sqliteOperationPageQueries(connection: SqliteConnection, filter: MemoryOperationFilter, request: MemoryStorePageRequest): StoreFilterQuery[] {
  const { runId, ...rest } = filter;
  const base = narrowToHours(connection, operationFilterQuery(sqliteDialect, rest), filter);
  if (request.after !== undefined) base.where.push(`position < ${bindValue(base, request.after)}`);
  if (runId === undefined) return [{ ...base, table: `memory_operations INDEXED BY ${chooseSqliteOperationIndex(connection, rest, request.after)}` }];
  // A run is the scope's run or the heartbeat run: two index reads, merged by position.
  // (SQLite would answer the OR by reading the company's log newest first until it fills the page.)
  return (
    [
      ['run_id', 'memory_operations_run'],
      ['heartbeat_run_id', 'memory_operations_heartbeat'],
    ] as const
  ).map(([column, index]) => {
    const query = copyFilterQuery(base);
    query.where.push(`${column} = ${bindValue(query, runId)}`);
    return { ...query, table: `memory_operations INDEXED BY ${index}` };
  });
}

/**
 * One keyset page of the operation log, newest first, read through the index of its filter.
 * `INDEXED BY` makes a missing index an error rather than a silent scan of the log.
 */
export function listSqliteOperations<Entry>(
  connection: SqliteConnection,
  filter: MemoryOperationFilter,
  request: MemoryStorePageRequest,
  toEntry: (row: Row) => Entry,
): MemoryStorePage<Entry> {
  const queries = sqliteOperationPageQueries(connection, filter, request);
  // The cursor is already in each query.
  const { after: _after, ...first } = request;
  if (queries.length === 1) return connection.page(queries[0]!, first, toEntry);
  // The newest `limit` entries of the union lie among the newest `limit` of each part; an entry
  // in both parts (scope run and heartbeat run the same id) is one entry.
  const limit = Math.max(1, Math.min(500, Math.floor(request.limit)));
  const byPosition = new Map<number, Row>();
  let more = false;
  for (const query of queries) {
    const part = connection.page(query, { limit }, (row) => row);
    if (part.nextAfter !== undefined) more = true;
    for (const row of part.items) byPosition.set(Number(row.position), row);
  }
  const rows = [...byPosition.entries()].sort((left, right) => right[0] - left[0]);
  if (rows.length > limit) more = true;
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items: items.map(([, row]) => toEntry(row)),
    ...(more && last !== undefined ? { nextAfter: last[0] } : {}),
  };
}
