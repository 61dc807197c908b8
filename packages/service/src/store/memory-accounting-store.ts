import type {
  MemoryBindingUsage,
  MemoryCostEventEntry,
  MemoryCostFilter,
  MemoryCostGrouping,
  MemoryCostGroupTotals,
  MemoryCountedRecord,
  MemoryFinanceEventEntry,
  MemoryOperationMetricsRow,
} from './memory-accounting-records';
import type { MemoryOperationEntry, MemoryOperationFilter, MemoryStorePage, MemoryStorePageRequest } from './memory-service-records';

/** Filters over cost events. Every field set must match. */
export interface MemoryCostEventFilter extends MemoryCostFilter {
  /** Only the events of this operation. */
  operationId?: string;
  /** Only this binding. */
  bindingId?: string;
  /** Only this agent. */
  agentId?: string;
}

/** Filters over finance events. */
export interface MemoryFinanceEventFilter extends MemoryCostFilter {
  /** Only this binding. */
  bindingId?: string;
}

/** Caps of a binding; a cap left out does not limit. */
export interface MemoryBindingCaps {
  /** The most records. */
  maxRecords?: number;
  /** The most bytes. */
  maxBytes?: number;
}

/**
 * The accounting half of the store: cost and finance events, metrics read from the operation
 * log, the per-binding usage that quotas check, and log retention. Every read and write is
 * limited to the company it is given.
 */
export interface MemoryAccountingStore {
  /** Appends cost events, all or none. */
  appendCostEvents(entries: MemoryCostEventEntry[]): Promise<void>;
  /** The cost events matching the filter, newest first. */
  listCostEvents(filter: MemoryCostEventFilter, page: MemoryStorePageRequest): Promise<MemoryStorePage<MemoryCostEventEntry>>;
  /** Appends finance events, all or none. */
  appendFinanceEvents(entries: MemoryFinanceEventEntry[]): Promise<void>;
  /** The finance events matching the filter, newest first. */
  listFinanceEvents(filter: MemoryFinanceEventFilter, page: MemoryStorePageRequest): Promise<MemoryStorePage<MemoryFinanceEventEntry>>;
  /**
   * Cost events summed per group (`occurredAt` in the range): per company, agent, binding key,
   * UTC day (`2026-01-31`) or UTC month (`2026-01`). Groups sort by name, the one without a
   * name (events with no agent, say) first.
   */
  summarizeCostEvents(filter: MemoryCostFilter, grouping: MemoryCostGrouping): Promise<MemoryCostGroupTotals[]>;
  /** Finance events summed per group the same way; credits count negative; token sums are 0. */
  summarizeFinanceEvents(filter: MemoryCostFilter, grouping: MemoryCostGrouping): Promise<MemoryCostGroupTotals[]>;

  /**
   * Per-binding figures of the operation log within the company, date range and binding given:
   * counts, query hits and empty queries (succeeded queries with a result count above 0, or of
   * 0), succeeded corrections, extraction failures (the sum of `extractionFailures`) and
   * nearest-rank p50 and p95 of `latencyMs`. Sorted by binding key, the unresolved group first.
   * Retention entries (`retention_prune`) are bookkeeping, not memory work, and are left out.
   */
  operationMetrics(filter: Pick<MemoryOperationFilter, 'companyId' | 'from' | 'to' | 'bindingId'>): Promise<MemoryOperationMetricsRow[]>;

  /** What the service counts against a binding (zeros when it counted nothing yet). */
  getBindingUsage(companyId: string, bindingId: string): Promise<MemoryBindingUsage>;
  /**
   * Adds `delta` to the binding's usage unless that would pass a cap, atomically (concurrent
   * writers through other processes included). Returns whether it was added, and the usage
   * before.
   */
  reserveBindingUsage(
    companyId: string,
    bindingId: string,
    delta: MemoryBindingUsage,
    caps: MemoryBindingCaps,
  ): Promise<{ reserved: boolean; usage: MemoryBindingUsage }>;
  /** Takes back a reservation whose write failed. Usage never goes below zero. */
  releaseBindingUsage(companyId: string, bindingId: string, delta: MemoryBindingUsage): Promise<void>;
  /**
   * Settles a reservation with the records the provider accepted, in one transaction: each
   * record is counted with its bytes (a record counted before is replaced, not counted twice),
   * and what was reserved and not used is released.
   */
  settleBindingUsage(companyId: string, bindingId: string, reserved: MemoryBindingUsage, records: MemoryCountedRecord[]): Promise<void>;
  /** Stops counting records (they were forgotten). Ids never counted are ignored. */
  uncountBindingRecords(companyId: string, bindingId: string, providerRecordIds: string[]): Promise<void>;

  /**
   * Retention: deletes the company's operations created before `before` and appends `entry`,
   * the prune's own log entry, with `resultCount` set to the number deleted, in one
   * transaction. Returns that number.
   */
  pruneOperations(companyId: string, before: string, entry: MemoryOperationEntry): Promise<number>;
  /** The companies that have operations created before `before`, sorted. */
  listCompaniesWithOperationsBefore(before: string): Promise<string[]>;
}
