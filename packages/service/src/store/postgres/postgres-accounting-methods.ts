import type { MemoryCostFilter, MemoryCostGrouping } from '../memory-accounting-records';
import { costEventColumns, costEventValues, financeEventColumns, financeEventValues, groupingExpression, rowToCostEvent, rowToFinanceEvent, rowToGroupTotals, rowToMetrics } from '../support/accounting-rows';
import { eventFilterQuery, operationFilterQuery, postgresDialect } from '../support/store-filters';
import { eventSummarySql, operationMetricsSql } from '../support/accounting-sql';
import { jsonParsedCodec, type StoreRow } from '../support/store-row-codec';
import type { MemoryStoreAccountingMethods } from '../memory-store-method-groups';
import { batchInsertSql, batchParametersOf } from './postgres-batch-insert';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';
import type { OperationHours } from './postgres-operation-hours';
import type { PostgresPager } from './postgres-pages';


// Days and months are UTC.
const datePrefix = (characters: 10 | 7) => `to_char(occurred_at AT TIME ZONE 'UTC', '${characters === 10 ? 'YYYY-MM-DD' : 'YYYY-MM'}')`;

/** Cost and finance events, their summaries, and the metrics of the operation log. */
export function createPostgresAccountingMethods(
  connection: PostgresConnection,
  table: (name: string) => string,
  page: PostgresPager,
  hours: OperationHours,
): MemoryStoreAccountingMethods {
  const insertCostEventsSql = batchInsertSql(table('cost_events'), costEventColumns);
  const insertFinanceEventsSql = batchInsertSql(table('finance_events'), financeEventColumns);

  const summarize = async (name: 'cost_events' | 'finance_events', filter: MemoryCostFilter, grouping: MemoryCostGrouping) => {
    const query = eventFilterQuery(postgresDialect, name, filter);
    const rows = await connection.query<StoreRow>(eventSummarySql(query, table(name), groupingExpression(grouping, datePrefix), ' COLLATE "C"'), query.values);
    return rows.map(rowToGroupTotals);
  };

  return {
    appendCostEvents: (entries) =>
      storeCall('append cost events', async () => {
        if (entries.length > 0) await connection.query(insertCostEventsSql, batchParametersOf(entries, costEventValues, costEventColumns.length));
      }),

    listCostEvents: (filter, request) =>
      storeCall('list cost events', () =>
        page(
          eventFilterQuery(postgresDialect, 'cost_events', filter, [
            ['operation_id', filter.operationId],
            ['binding_id', filter.bindingId],
            ['agent_id', filter.agentId],
          ]),
          request,
          (row) => rowToCostEvent(row, jsonParsedCodec),
        ),
      ),

    appendFinanceEvents: (entries) =>
      storeCall('append finance events', async () => {
        if (entries.length > 0) await connection.query(insertFinanceEventsSql, batchParametersOf(entries, financeEventValues, financeEventColumns.length));
      }),

    listFinanceEvents: (filter, request) =>
      storeCall('list finance events', () => page(eventFilterQuery(postgresDialect, 'finance_events', filter, [['binding_id', filter.bindingId]]), request, (row) =>
        rowToFinanceEvent(row, jsonParsedCodec),
      )),

    summarizeCostEvents: (filter, grouping) => storeCall('summarize cost events', () => summarize('cost_events', filter, grouping)),

    summarizeFinanceEvents: (filter, grouping) => storeCall('summarize finance events', () => summarize('finance_events', filter, grouping)),

    operationMetrics: (filter) =>
      storeCall('read operation metrics', async () => {
        const query = hours.narrow(
          operationFilterQuery(postgresDialect, { companyId: filter.companyId, from: filter.from, to: filter.to, bindingId: filter.bindingId }),
          filter,
        );
        // Nearest-rank percentiles, the same SQL as the SQLite store.
        const rows = await connection.query<StoreRow>(operationMetricsSql(query, table('memory_operations')), query.values);
        return rows.map(rowToMetrics);
      }),
  };
}
