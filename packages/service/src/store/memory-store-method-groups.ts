import type { MemoryAccountingStore } from './memory-accounting-store';
import type { MemoryServiceStore } from './memory-service-store';

/*
 * The groups of store methods that each store builds in its own module. The SQLite and the
 * Postgres store split their methods this way, and a store of your own may too: the groups are
 * named once, here, and published from `@memplane/service/store`.
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
