import type { StoreFilterQuery } from './store-filters';

/**
 * The per-binding metrics of the operation log in one pass: counts by status and kind, and
 * nearest-rank latency percentiles (the smallest latency whose rank reaches p% of the group).
 * Plain SQL both stores run: `table` is the (qualified) operations table.
 */
export function operationMetricsSql(query: StoreFilterQuery, table = 'memory_operations'): string {
  return `WITH ranked AS (
      SELECT binding_id, binding_key, status, operation, result_count, extraction_failures, latency_ms,
        ROW_NUMBER() OVER (PARTITION BY binding_id, binding_key ORDER BY latency_ms) AS latency_rank,
        COUNT(*) OVER (PARTITION BY binding_id, binding_key) AS total
      FROM ${table} WHERE ${query.where.join(' AND ')} AND operation <> 'retention_prune'
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

/**
 * The totals of cost or finance events per group (`group_name`), groups in byte order.
 * `table` is the qualified table of `query.table`; `byteOrder` is what makes the store sort
 * text by bytes (`COLLATE "C"` on Postgres, nothing on SQLite, which always does).
 */
export function eventSummarySql(query: StoreFilterQuery, table: string, groupExpression: string, byteOrder: string): string {
  const costs = query.table === 'cost_events';
  const cents = costs ? 'cost_cents' : "CASE direction WHEN 'credit' THEN -amount_cents ELSE amount_cents END";
  const tokens = (column: string) => (costs ? `COALESCE(SUM(${column}), 0)` : '0');
  return `SELECT * FROM (
      SELECT ${groupExpression} AS group_name, COUNT(*) AS events, COALESCE(SUM(${cents}), 0) AS cents,
        ${tokens('input_tokens')} AS input_tokens, ${tokens('cached_input_tokens')} AS cached_input_tokens,
        ${tokens('output_tokens')} AS output_tokens, ${tokens('embedding_tokens')} AS embedding_tokens
      FROM ${table} WHERE ${query.where.join(' AND ')}
      GROUP BY 1
    ) AS grouped ORDER BY group_name${byteOrder} NULLS FIRST`;
}
