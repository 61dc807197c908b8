import type { MemoryCostFilter, MemoryCostGrouping } from '../memory-accounting-records';
import type { MemoryCostEventFilter, MemoryFinanceEventFilter } from '../memory-accounting-store';
import type { MemoryStoreAccountingMethods } from '../memory-store-method-groups';
import {
  costEventColumns,
  costEventValues,
  financeEventColumns,
  financeEventValues,
  groupingExpression,
  rowToCostEvent,
  rowToFinanceEvent,
  rowToGroupTotals,
  rowToMetrics,
} from '../support/accounting-rows';
import { eventSummarySql, operationMetricsSql } from '../support/accounting-sql';
import { jsonAsTextCodec } from '../support/store-row-codec';
import { eventFilterQuery, operationFilterQuery, sqliteDialect } from '../support/store-filters';
import type { SqliteConnection } from './sqlite-connection';
import { insertRowsSql } from './sqlite-log-methods';
import { narrowToHours } from './sqlite-operation-hours';

type Row = Record<string, unknown>;

const insertCostEvent = insertRowsSql('cost_events', costEventColumns);
const insertFinanceEvent = insertRowsSql('finance_events', financeEventColumns);
// Times are stored as ISO 8601 in UTC, so a prefix is the day or the month.
const datePrefix = (characters: number) => `substr(occurred_at, 1, ${characters})`;

/** Cost and finance events, their summaries, and the metrics of the operation log. */
export function createSqliteAccountingMethods(connection: SqliteConnection): MemoryStoreAccountingMethods {
  const { prepare, transaction, page } = connection;

  const summarize = (table: 'cost_events' | 'finance_events', filter: MemoryCostFilter, grouping: MemoryCostGrouping) => {
    const query = eventFilterQuery(sqliteDialect, table, filter);
    const rows = prepare(eventSummarySql(query, table, groupingExpression(grouping, datePrefix), '')).all(query.values) as Row[];
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
      const query = eventFilterQuery(sqliteDialect, 'cost_events', filter, [
        ['operation_id', filter.operationId],
        ['binding_id', filter.bindingId],
        ['agent_id', filter.agentId],
      ]);
      return page(query, request, (row) => rowToCostEvent(row, jsonAsTextCodec));
    },

    async appendFinanceEvents(entries) {
      if (entries.length === 0) return;
      const statement = prepare(insertFinanceEvent);
      transaction(() => {
        for (const entry of entries) statement.run(financeEventValues(entry));
      });
    },

    async listFinanceEvents(filter: MemoryFinanceEventFilter, request) {
      const query = eventFilterQuery(sqliteDialect, 'finance_events', filter, [['binding_id', filter.bindingId]]);
      return page(query, request, (row) => rowToFinanceEvent(row, jsonAsTextCodec));
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
        operationFilterQuery(sqliteDialect, { companyId: filter.companyId, from: filter.from, to: filter.to, bindingId: filter.bindingId }),
        filter,
      );
      const rows = prepare(operationMetricsSql(query)).all(query.values) as Row[];
      return rows.map(rowToMetrics);
    },
  };
}
