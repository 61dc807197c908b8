import type { MemoryCostFilter, MemoryCostGrouping } from '../memory-accounting-records';
import type { MemoryAccountingStore, MemoryCostEventFilter, MemoryFinanceEventFilter } from '../memory-accounting-store';
import {
  costEventColumns,
  costEventValues,
  financeEventColumns,
  financeEventValues,
  groupingExpression,
  rowToCostEvent,
  rowToFinanceEvent,
  rowToGroupTotals,
} from './sqlite-accounting-rows';
import type { SqliteConnection } from './sqlite-connection';
import { operationFilterQuery, type FilterQuery } from './sqlite-filters';
import { narrowToHours } from './sqlite-operation-hours';

type Row = Record<string, unknown>;
type AccountingMethods = Pick<
  MemoryAccountingStore,
  'appendCostEvents' | 'listCostEvents' | 'appendFinanceEvents' | 'listFinanceEvents' | 'summarizeCostEvents' | 'summarizeFinanceEvents' | 'operationMetrics'
>;

const insertCostEvent = `INSERT INTO cost_events (${costEventColumns.join(', ')}) VALUES (${costEventColumns.map(() => '?').join(', ')})`;
const insertFinanceEvent = `INSERT INTO finance_events (${financeEventColumns.join(', ')}) VALUES (${financeEventColumns.map(() => '?').join(', ')})`;

function timeRange(table: string, filter: MemoryCostFilter, columns: Array<[column: string, value: unknown]> = []): FilterQuery {
  const query: FilterQuery = { table, where: ['company_id = @companyId'], parameters: { companyId: filter.companyId } };
  for (const [column, value] of columns) {
    if (value === undefined) continue;
    query.where.push(`${column} = @${column}`);
    query.parameters[column] = value;
  }
  if (filter.from !== undefined) {
    query.where.push('occurred_at >= @from');
    query.parameters.from = filter.from;
  }
  if (filter.to !== undefined) {
    query.where.push('occurred_at < @to');
    query.parameters.to = filter.to;
  }
  return query;
}

/**
 * The per-binding metrics of the operation log in one pass: counts by status and kind, and
 * nearest-rank latency percentiles (the smallest latency whose rank reaches p% of the group).
 */
export function operationMetricsSql(where: string): string {
  return `WITH ranked AS (
      SELECT binding_id, binding_key, status, operation, result_count, extraction_failures, latency_ms,
        ROW_NUMBER() OVER (PARTITION BY binding_id, binding_key ORDER BY latency_ms) AS latency_rank,
        COUNT(*) OVER (PARTITION BY binding_id, binding_key) AS total
      FROM memory_operations WHERE ${where} AND operation <> 'retention_prune'
    )
    SELECT binding_id, binding_key, COUNT(*) AS operations,
      SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
      SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
      SUM(CASE WHEN status = 'succeeded' AND operation = 'query' THEN 1 ELSE 0 END) AS queries,
      SUM(CASE WHEN status = 'succeeded' AND operation = 'query' AND result_count > 0 THEN 1 ELSE 0 END) AS query_hits,
      SUM(CASE WHEN status = 'succeeded' AND operation = 'query' AND COALESCE(result_count, 0) = 0 THEN 1 ELSE 0 END) AS empty_queries,
      SUM(CASE WHEN status = 'succeeded' AND operation = 'correct' THEN 1 ELSE 0 END) AS corrections,
      COALESCE(SUM(extraction_failures), 0) AS extraction_failures,
      MIN(CASE WHEN latency_rank * 100 >= total * 50 THEN latency_ms END) AS latency_p50,
      MIN(CASE WHEN latency_rank * 100 >= total * 95 THEN latency_ms END) AS latency_p95
    FROM ranked
    GROUP BY binding_id, binding_key
    ORDER BY binding_key NULLS FIRST, binding_id NULLS FIRST`;
}

/** A metrics row as every store returns it. */
export function rowToMetrics(row: Row) {
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
export function createSqliteAccountingMethods(connection: SqliteConnection): AccountingMethods {
  const { prepare, transaction, page } = connection;

  const summarize = (table: 'cost_events' | 'finance_events', filter: MemoryCostFilter, grouping: MemoryCostGrouping) => {
    const query = timeRange(table, filter);
    const cents = table === 'cost_events' ? 'cost_cents' : "CASE direction WHEN 'credit' THEN -amount_cents ELSE amount_cents END";
    const tokens = (column: string) => (table === 'cost_events' ? `COALESCE(SUM(${column}), 0)` : '0');
    const rows = prepare(
      `SELECT ${groupingExpression(grouping)} AS group_name, COUNT(*) AS events, COALESCE(SUM(${cents}), 0) AS cents,
         ${tokens('input_tokens')} AS input_tokens, ${tokens('cached_input_tokens')} AS cached_input_tokens,
         ${tokens('output_tokens')} AS output_tokens, ${tokens('embedding_tokens')} AS embedding_tokens
       FROM ${table} WHERE ${query.where.join(' AND ')}
       GROUP BY group_name ORDER BY group_name NULLS FIRST`,
    ).all(query.parameters) as Row[];
    return rows.map(rowToGroupTotals);
  };

  return {
    async appendCostEvents(entries) {
      if (entries.length === 0) return;
      const statement = prepare(insertCostEvent);
      transaction(() => {
        for (const entry of entries) statement.run(costEventValues(entry));
      });
    },

    async listCostEvents(filter: MemoryCostEventFilter, request) {
      const query = timeRange('cost_events', filter, [
        ['operation_id', filter.operationId],
        ['binding_id', filter.bindingId],
        ['agent_id', filter.agentId],
      ]);
      return page(query, request, rowToCostEvent);
    },

    async appendFinanceEvents(entries) {
      if (entries.length === 0) return;
      const statement = prepare(insertFinanceEvent);
      transaction(() => {
        for (const entry of entries) statement.run(financeEventValues(entry));
      });
    },

    async listFinanceEvents(filter: MemoryFinanceEventFilter, request) {
      return page(timeRange('finance_events', filter, [['binding_id', filter.bindingId]]), request, rowToFinanceEvent);
    },

    async summarizeCostEvents(filter, grouping) {
      return summarize('cost_events', filter, grouping);
    },

    async summarizeFinanceEvents(filter, grouping) {
      return summarize('finance_events', filter, grouping);
    },

    async operationMetrics(filter) {
      const query = narrowToHours(
        connection,
        operationFilterQuery({ companyId: filter.companyId, from: filter.from, to: filter.to, bindingId: filter.bindingId }),
        filter,
      );
      const rows = prepare(operationMetricsSql(query.where.join(' AND '))).all(query.parameters) as Row[];
      return rows.map(rowToMetrics);
    },
  };
}
