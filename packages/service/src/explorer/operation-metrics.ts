import type { MemoryOperationMetricsRow } from '../store/memory-accounting-records';
import type { MemoryServiceStore } from '../store/memory-service-store';

/** A rate, or null when nothing was counted to take it from. */
export type MemoryRate = number | null;

/** The figures of one binding (or of the operations that failed before resolution), read from the operation log. */
export interface MemoryBindingMetrics extends MemoryOperationMetricsRow {
  /** The binding key recorded with the operations, `(unresolved)` for operations that failed before resolution. */
  bindingKey: string;
  /** Succeeded over all operations. */
  successRate: MemoryRate;
  /** Succeeded queries that returned at least one record, over succeeded queries: the recall hit rate. */
  recallHitRate: MemoryRate;
  /** Succeeded queries that returned nothing, over succeeded queries. */
  emptyQueryRate: MemoryRate;
}

/** The company-wide figures: sums and rates over every binding (latency stays per binding). */
export interface MemoryMetricsTotals {
  operations: number;
  succeeded: number;
  failed: number;
  queries: number;
  queryHits: number;
  emptyQueries: number;
  corrections: number;
  extractionFailures: number;
  successRate: MemoryRate;
  recallHitRate: MemoryRate;
  emptyQueryRate: MemoryRate;
}

/**
 * The evaluation metrics of the plan, from the operation log and nothing else: recall hit
 * rate, empty-query rate, manual corrections, extraction failures, success and failure per
 * binding, and p50/p95 latency per binding.
 */
export interface MemoryOperationMetrics {
  /** The range the figures cover, when one was given. */
  from?: string;
  to?: string;
  /** Per binding, by key. */
  bindings: MemoryBindingMetrics[];
  /** Every binding together. */
  totals: MemoryMetricsTotals;
}

const rate = (part: number, whole: number): MemoryRate => (whole === 0 ? null : part / whole);

/** Reads the metrics of one company (optionally one binding) in a date range. */
export async function readOperationMetrics(
  store: MemoryServiceStore,
  filter: { companyId: string; bindingId?: string; from?: string; to?: string },
): Promise<MemoryOperationMetrics> {
  const rows = await store.operationMetrics(filter);
  const totals: MemoryMetricsTotals = {
    operations: 0,
    succeeded: 0,
    failed: 0,
    queries: 0,
    queryHits: 0,
    emptyQueries: 0,
    corrections: 0,
    extractionFailures: 0,
    successRate: null,
    recallHitRate: null,
    emptyQueryRate: null,
  };
  const bindings = rows.map((row): MemoryBindingMetrics => {
    for (const key of ['operations', 'succeeded', 'failed', 'queries', 'queryHits', 'emptyQueries', 'corrections', 'extractionFailures'] as const) {
      totals[key] += row[key];
    }
    return {
      ...row,
      bindingKey: row.bindingKey ?? '(unresolved)',
      successRate: rate(row.succeeded, row.operations),
      recallHitRate: rate(row.queryHits, row.queries),
      emptyQueryRate: rate(row.emptyQueries, row.queries),
    };
  });
  totals.successRate = rate(totals.succeeded, totals.operations);
  totals.recallHitRate = rate(totals.queryHits, totals.queries);
  totals.emptyQueryRate = rate(totals.emptyQueries, totals.queries);
  return { ...(filter.from === undefined ? {} : { from: filter.from }), ...(filter.to === undefined ? {} : { to: filter.to }), bindings, totals };
}
