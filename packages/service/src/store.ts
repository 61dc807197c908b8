/**
 * `@memplane/service/store`: what a store author implements. `MemoryServiceStore` is the
 * interface the service keeps its state behind; the method groups split it the way the SQLite
 * and Postgres stores build it; the record types are what it keeps, the host's token table
 * included. The shared suite that every store must pass is `describeMemoryServiceStoreSuite`
 * from `@memplane/service/testing`.
 */
export type { MemoryServiceStore } from './store/memory-service-store';
export { memoryTokenRoles, memoryTokenStoreMethods, type MemoryTokenRow, type MemoryTokenStore } from './store/memory-token-store';
export type {
  MemoryStoreAccountingMethods,
  MemoryStoreBindingMethods,
  MemoryStoreLogMethods,
  MemoryStoreUsageMethods,
} from './store/memory-store-method-groups';
export type {
  MemoryAccountingStore,
  MemoryBindingCaps,
  MemoryCostEventFilter,
  MemoryFinanceEventFilter,
} from './store/memory-accounting-store';
export type { MemoryRecordPlacement, MemoryRecordRegistryStore, MemoryRegisteredRecord } from './store/memory-record-registry-store';
export type { MemoryDeliveryClaim, MemoryDeliveryKeyStore } from './store/memory-delivery-key-store';
export type {
  MemoryBindingUsage,
  MemoryCostEventEntry,
  MemoryCostFilter,
  MemoryCostGrouping,
  MemoryCostGroupTotals,
  MemoryCountedRecord,
  MemoryFinanceEventEntry,
  MemoryFinanceEventKind,
  MemoryOperationMetricsRow,
} from './store/memory-accounting-records';
export type {
  MemoryActivityAction,
  MemoryActivityEntry,
  MemoryActivitySubjectType,
  MemoryExtractionJobEntry,
  MemoryExtractionJobFilter,
  MemoryHookDeliveryEntry,
  MemoryHookDeliveryFilter,
  MemoryHookDeliveryStatus,
  MemoryOperationCount,
  MemoryOperationEntry,
  MemoryOperationFilter,
  MemoryOperationStatus,
  MemoryOperationType,
  MemoryStorePage,
  MemoryStorePageRequest,
} from './store/memory-service-records';
export type {
  MemoryBinding,
  MemoryBindingQuota,
  MemoryBindingHookSettings,
  MemoryBindingTarget,
  MemoryBindingTargetType,
  ResolvedMemoryBinding,
} from './bindings/memory-binding';
