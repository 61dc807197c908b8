import type { MemoryAccountingStore, MemoryCostFilter, MemoryCostGrouping, MemoryOperationMetricsRow } from '@memplane/service';
import {
  costEventColumns,
  costEventToRecord,
  financeEventColumns,
  financeEventToRecord,
  groupingExpression,
  rowToCostEvent,
  rowToFinanceEvent,
  rowToGroupTotals,
} from './postgres-accounting-rows';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';
import { bind, operationFilterQuery, type FilterQuery } from './postgres-filters';
import type { OperationHours } from './postgres-operation-hours';
import type { PostgresPager } from './postgres-pages';
import { recordsetInsert, type Row } from './postgres-rows';

type AccountingMethods = Pick<
  MemoryAccountingStore,
  'appendCostEvents' | 'listCostEvents' | 'appendFinanceEvents' | 'listFinanceEvents' | 'summarizeCostEvents' | 'summarizeFinanceEvents' | 'operationMetrics'
>;

function timeRange(table: string, filter: MemoryCostFilter, columns: Array<[column: string, value: unknown]> = []): FilterQuery {
  const query: FilterQuery = { table, where: [], values: [] };
  query.where.push(`company_id = ${bind(query, filter.companyId)}`);
  for (const [column, value] of columns) if (value !== undefined) query.where.push(`${column} = ${bind(query, value)}`);
  if (filter.from !== undefined) query.where.push(`occurred_at >= ${bind(query, filter.from)}::timestamptz`);
  if (filter.to !== undefined) query.where.push(`occurred_at < ${bind(query, filter.to)}::timestamptz`);
  return query;
}

function rowToMetrics(row: Row): MemoryOperationMetricsRow {
  return {
    ...(row.binding_id === null ? {} : { bindingId: String(row.binding_id) }),
    ...(row.binding_key === null ? {} : { bindingKey: String(row.binding_key) }),
    operations: Number(row.operations),
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    queries: Number(row.queries),
    queryHits: Number(row.query_hits),
    emptyQueries: Number(row.empty_queries),
    corrections: Number(row.corrections),
    extractionFailures: Number(row.extraction_failures),
    latencyP50Ms: Number(row.latency_p50),
    latencyP95Ms: Number(row.latency_p95),
  };
}

/** Cost and finance events, their summaries, and the metrics of the operation log. */
export function createPostgresAccountingMethods(
  connection: PostgresConnection,
  table: (name: string) => string,
  page: PostgresPager,
  hours: OperationHours,
): AccountingMethods {
  const insertCostEventsSql = recordsetInsert(table('cost_events'), costEventColumns);
  const insertFinanceEventsSql = recordsetInsert(table('finance_events'), financeEventColumns);

  const summarize = async (name: 'cost_events' | 'finance_events', filter: MemoryCostFilter, grouping: MemoryCostGrouping) => {
    const query = timeRange(name, filter);
    const cents = name === 'cost_events' ? 'cost_cents' : "CASE direction WHEN 'credit' THEN -amount_cents ELSE amount_cents END";
    const tokens = (column: string) => (name === 'cost_events' ? `coalesce(sum(${column}), 0)` : '0');
    const rows = await connection.query<Row>(
      `SELECT * FROM (
         SELECT ${groupingExpression(grouping)} AS group_name, count(*) AS events, coalesce(sum(${cents}), 0) AS cents,
           ${tokens('input_tokens')} AS input_tokens, ${tokens('cached_input_tokens')} AS cached_input_tokens,
           ${tokens('output_tokens')} AS output_tokens, ${tokens('embedding_tokens')} AS embedding_tokens
         FROM ${table(name)} WHERE ${query.where.join(' AND ')}
         GROUP BY 1
       ) AS grouped ORDER BY group_name COLLATE "C" NULLS FIRST`,
      query.values,
    );
    return rows.map(rowToGroupTotals);
  };

  return {
    appendCostEvents: (entries) =>
      storeCall('append cost events', async () => {
        if (entries.length > 0) await connection.query(insertCostEventsSql, [JSON.stringify(entries.map(costEventToRecord))]);
      }),

    listCostEvents: (filter, request) =>
      storeCall('list cost events', () =>
        page(
          timeRange('cost_events', filter, [
            ['operation_id', filter.operationId],
            ['binding_id', filter.bindingId],
            ['agent_id', filter.agentId],
          ]),
          request,
          rowToCostEvent,
        ),
      ),

    appendFinanceEvents: (entries) =>
      storeCall('append finance events', async () => {
        if (entries.length > 0) await connection.query(insertFinanceEventsSql, [JSON.stringify(entries.map(financeEventToRecord))]);
      }),

    listFinanceEvents: (filter, request) =>
      storeCall('list finance events', () => page(timeRange('finance_events', filter, [['binding_id', filter.bindingId]]), request, rowToFinanceEvent)),

    summarizeCostEvents: (filter, grouping) => storeCall('summarize cost events', () => summarize('cost_events', filter, grouping)),

    summarizeFinanceEvents: (filter, grouping) => storeCall('summarize finance events', () => summarize('finance_events', filter, grouping)),

    operationMetrics: (filter) =>
      storeCall('read operation metrics', async () => {
        const query = hours.narrow(
          operationFilterQuery({ companyId: filter.companyId, from: filter.from, to: filter.to, bindingId: filter.bindingId }),
          filter,
        );
        // Nearest-rank percentiles, the same definition as the SQLite store: the smallest latency whose rank reaches p% of the group.
        const rows = await connection.query<Row>(
          `WITH ranked AS (
             SELECT binding_id, binding_key, status, operation, result_count, extraction_failures, latency_ms,
               row_number() OVER (PARTITION BY binding_id, binding_key ORDER BY latency_ms) AS latency_rank,
               count(*) OVER (PARTITION BY binding_id, binding_key) AS total
             FROM ${table('memory_operations')} WHERE ${query.where.join(' AND ')} AND operation <> 'retention_prune'
           )
           SELECT binding_id, binding_key, count(*) AS operations,
             count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
             count(*) FILTER (WHERE status = 'failed') AS failed,
             count(*) FILTER (WHERE status = 'succeeded' AND operation = 'query') AS queries,
             count(*) FILTER (WHERE status = 'succeeded' AND operation = 'query' AND result_count > 0) AS query_hits,
             count(*) FILTER (WHERE status = 'succeeded' AND operation = 'query' AND coalesce(result_count, 0) = 0) AS empty_queries,
             count(*) FILTER (WHERE status = 'succeeded' AND operation = 'correct') AS corrections,
             coalesce(sum(extraction_failures), 0) AS extraction_failures,
             min(latency_ms) FILTER (WHERE latency_rank * 100 >= total * 50) AS latency_p50,
             min(latency_ms) FILTER (WHERE latency_rank * 100 >= total * 95) AS latency_p95
           FROM ranked
           GROUP BY binding_id, binding_key
           ORDER BY binding_key NULLS FIRST, binding_id NULLS FIRST`,
          query.values,
        );
        return rows.map(rowToMetrics);
      }),
  };
}
