import type { MemoryAccountingStore } from '../memory-accounting-store';
import type { MemoryServiceStore } from '../memory-service-store';

/*
 * The groups of store methods that each store builds in its own module. Both the SQLite store
 * and @memplane/service-postgres split their methods this way, so the groups are named once.
 */

/** Bindings, their targets and resolution. */
export type MemoryStoreBindingMethods = Pick<
  MemoryServiceStore,
  | 'insertBinding'
  | 'updateBinding'
  | 'deleteBinding'
  | 'getBindingByKey'
  | 'getBindingById'
  | 'listBindings'
  | 'putTarget'
  | 'deleteTarget'
  | 'getTarget'
  | 'listTargets'
  | 'resolveBinding'
  | 'appendActivity'
>;

/** The activity log, the operation log, hook deliveries and extraction jobs. */
export type MemoryStoreLogMethods = Pick<
  MemoryServiceStore,
  | 'listActivity'
  | 'appendOperations'
  | 'listOperations'
  | 'getOperation'
  | 'countOperations'
  | 'appendHookDeliveries'
  | 'listHookDeliveries'
  | 'upsertExtractionJobs'
  | 'getExtractionJob'
  | 'listExtractionJobs'
>;

/** The per-binding usage that quotas check, and the retention of the operation log. */
export type MemoryStoreUsageMethods = Pick<
  MemoryAccountingStore,
  | 'getBindingUsage'
  | 'reserveBindingUsage'
  | 'releaseBindingUsage'
  | 'settleBindingUsage'
  | 'uncountBindingRecords'
  | 'pruneOperations'
  | 'listCompaniesWithOperationsBefore'
>;

/** Cost and finance events, their summaries, and the metrics of the operation log. */
export type MemoryStoreAccountingMethods = Pick<
  MemoryAccountingStore,
  'appendCostEvents' | 'listCostEvents' | 'appendFinanceEvents' | 'listFinanceEvents' | 'summarizeCostEvents' | 'summarizeFinanceEvents' | 'operationMetrics'
>;
