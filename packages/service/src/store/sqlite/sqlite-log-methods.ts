import type { MemoryStoreLogMethods } from '../memory-store-method-groups';
import { deliveryColumns, deliveryValues, jobColumns, jobValues, rowToDelivery, rowToJob } from '../support/job-rows';
import { rowToActivity } from '../support/binding-rows';
import { operationColumns, rowToOperation, rowToOperationCount, writeOperationValues } from '../support/operation-rows';
import { jsonAsTextCodec, type StoreColumn } from '../support/store-row-codec';
import { countOperationsSql, deliveryFilterQuery, equalityQuery, jobFilterQuery, operationFilterQuery, sqliteDialect } from '../support/store-filters';
import type { SqliteConnection } from './sqlite-connection';
import { narrowToHours, recordOperationHours } from './sqlite-operation-hours';
import { listSqliteOperations } from './sqlite-operation-pages';

type Row = Record<string, unknown>;

/** `INSERT INTO <table> (<columns>) VALUES (?, …)`, `rows` rows of positional placeholders. */
export function insertRowsSql(table: string, columns: readonly StoreColumn[], rows = 1): string {
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${columns.map((column) => column.name).join(', ')}) VALUES ${Array.from({ length: rows }, () => placeholders).join(', ')}`;
}

const rowsPerGroup = 16;
const width = operationColumns.length;
export const insertOperation = insertRowsSql('memory_operations', operationColumns);
const insertOperationGroup = insertRowsSql('memory_operations', operationColumns, rowsPerGroup);
const toOperation = (row: Row) => rowToOperation(row, jsonAsTextCodec);
const toJob = (row: Row) => rowToJob(row, jsonAsTextCodec);

/** The activity, operation, hook delivery and extraction job tables of the SQLite store. */
export function createSqliteLogMethods(connection: SqliteConnection): MemoryStoreLogMethods {
  const { prepare, transaction, page } = connection;
  // One array of values per statement shape, filled again for every group: no array per row.
  const groupValues = new Array<unknown>(rowsPerGroup * width);
  const singleValues = new Array<unknown>(width);
  return {
    async listActivity(companyId, request) {
      return page(equalityQuery(sqliteDialect, 'memory_activity', companyId), request, (row) => rowToActivity(row, jsonAsTextCodec));
    },

    async appendOperations(entries) {
      if (entries.length === 0) return;
      transaction(() => {
        let index = 0;
        let lastPosition = 0;
        // Rows go in groups of 16 per statement: fewer statement steps, same values.
        if (entries.length >= rowsPerGroup) {
          const group = prepare(insertOperationGroup);
          for (; index + rowsPerGroup <= entries.length; index += rowsPerGroup) {
            for (let row = 0; row < rowsPerGroup; row += 1) writeOperationValues(entries[index + row]!, groupValues, row * width);
            lastPosition = Number(group.run(groupValues).lastInsertRowid);
          }
        }
        const single = prepare(insertOperation);
        for (; index < entries.length; index += 1) {
          writeOperationValues(entries[index]!, singleValues, 0);
          lastPosition = Number(single.run(singleValues).lastInsertRowid);
        }
        recordOperationHours(connection, entries, lastPosition);
      });
    },

    async listOperations(filter, request) {
      return listSqliteOperations(connection, filter, request, toOperation);
    },

    async getOperation(companyId, operationId) {
      const row = prepare('SELECT * FROM memory_operations WHERE company_id = ? AND id = ?').get(companyId, operationId) as Row | undefined;
      return row === undefined ? undefined : toOperation(row);
    },

    async countOperations(filter) {
      const query = narrowToHours(connection, operationFilterQuery(sqliteDialect, { companyId: filter.companyId, from: filter.from, to: filter.to }), filter);
      const rows = prepare(countOperationsSql(query)).all(query.values) as Row[];
      return rows.map(rowToOperationCount);
    },

    async appendHookDeliveries(entries) {
      if (entries.length === 0) return;
      const statement = prepare(insertRowsSql('memory_hook_deliveries', deliveryColumns));
      transaction(() => {
        for (const entry of entries) statement.run(deliveryValues(entry));
      });
    },

    async listHookDeliveries(filter, request) {
      return page(deliveryFilterQuery(sqliteDialect, filter), request, rowToDelivery);
    },

    async upsertExtractionJobs(entries) {
      if (entries.length === 0) return;
      const statement = prepare(
        `${insertRowsSql('memory_extraction_jobs', jobColumns)}
         ON CONFLICT (binding_id, provider_job_id) DO UPDATE SET
           status = excluded.status, error = excluded.error, submitted_at = excluded.submitted_at, started_at = excluded.started_at,
           finished_at = excluded.finished_at, retry_count = excluded.retry_count, updated_at = excluded.updated_at
         WHERE memory_extraction_jobs.company_id = excluded.company_id`,
      );
      transaction(() => {
        for (const entry of entries) statement.run(jobValues(entry));
      });
    },

    async getExtractionJob(companyId, jobId) {
      const row = prepare('SELECT * FROM memory_extraction_jobs WHERE company_id = ? AND id = ?').get(companyId, jobId) as Row | undefined;
      return row === undefined ? undefined : toJob(row);
    },

    async listExtractionJobs(filter, request) {
      return page(jobFilterQuery(sqliteDialect, filter), request, toJob);
    },
  };
}
