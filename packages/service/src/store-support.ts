// The entry <-> row mapping and the filter SQL the SQLite store and @memplane/service-postgres share.
export {
  compact,
  jsonAsTextCodec,
  jsonParsedCodec,
  storeColumns,
  type StoreColumn,
  type StoreColumnType,
  type StoreRow,
  type StoreRowCodec,
} from './store/support/store-row-codec';
export { activityColumns, activityValues, bindingColumns, bindingValues, rowToActivity, rowToBinding, rowToTarget } from './store/support/binding-rows';
export {
  operationColumns,
  operationValues,
  rowToOperation,
  rowToOperationCount,
  writeOperationValues,
} from './store/support/operation-rows';
export { deliveryColumns, deliveryValues, jobColumns, jobValues, rowToDelivery, rowToJob } from './store/support/job-rows';
export {
  costEventColumns,
  costEventValues,
  financeEventColumns,
  financeEventValues,
  groupingExpression,
  rowToCostEvent,
  rowToFinanceEvent,
  rowToGroupTotals,
  rowToMetrics,
} from './store/support/accounting-rows';
export { eventSummarySql, operationMetricsSql } from './store/support/accounting-sql';
export {
  bindValue,
  copyFilterQuery,
  countOperationsSql,
  deliveryFilterQuery,
  equalityQuery,
  eventFilterQuery,
  jobFilterQuery,
  operationFilterQuery,
  postgresDialect,
  sqliteDialect,
  type StoreFilterQuery,
  type StoreSqlDialect,
} from './store/support/store-filters';
export type {
  MemoryStoreAccountingMethods,
  MemoryStoreBindingMethods,
  MemoryStoreLogMethods,
  MemoryStoreUsageMethods,
} from './store/support/store-method-groups';
