import type { MemoryOperationType } from '../memory-service-records';
import type { MemoryServiceStore } from '../memory-service-store';
import type { SqliteConnection } from './sqlite-connection';
import { countOperationsQuery, deliveryFilterQuery, jobFilterQuery, operationFilterQuery } from './sqlite-filters';
import { narrowToHours, recordOperationHours } from './sqlite-operation-hours';
import {
  deliveryToRow,
  jobToRow,
  operationColumns,
  operationValues,
  rowToActivity,
  rowToDelivery,
  rowToJob,
  rowToOperation,
} from './sqlite-rows';

type Row = Record<string, unknown>;
type LogMethods = Pick<
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

const rowsPerGroup = 16;
const operationPlaceholders = `(${operationColumns.map(() => '?').join(', ')})`;
const insertOperation = `INSERT INTO memory_operations (${operationColumns.join(', ')}) VALUES ${operationPlaceholders}`;
const insertOperationGroup = `INSERT INTO memory_operations (${operationColumns.join(', ')}) VALUES ${Array.from({ length: rowsPerGroup }, () => operationPlaceholders).join(', ')}`;

/** The activity, operation, hook delivery and extraction job tables of the SQLite store. */
export function createSqliteLogMethods(connection: SqliteConnection): LogMethods {
  const { prepare, transaction, page } = connection;
  return {
    async listActivity(companyId, request) {
      return page({ table: 'memory_activity', where: ['company_id = @companyId'], parameters: { companyId } }, request, rowToActivity);
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
            lastPosition = Number(group.run(entries.slice(index, index + rowsPerGroup).flatMap(operationValues)).lastInsertRowid);
          }
        }
        const single = prepare(insertOperation);
        for (; index < entries.length; index += 1) lastPosition = Number(single.run(operationValues(entries[index]!)).lastInsertRowid);
        recordOperationHours(connection, entries, lastPosition);
      });
    },

    async listOperations(filter, request) {
      return page(narrowToHours(connection, operationFilterQuery(filter), filter), request, rowToOperation);
    },

    async getOperation(companyId, operationId) {
      const row = prepare('SELECT * FROM memory_operations WHERE company_id = ? AND id = ?').get(companyId, operationId) as Row | undefined;
      return row === undefined ? undefined : rowToOperation(row);
    },

    async countOperations(filter) {
      const query = countOperationsQuery(
        narrowToHours(connection, operationFilterQuery({ companyId: filter.companyId, from: filter.from, to: filter.to }), filter),
      );
      const rows = prepare(query.sql).all(query.parameters) as Row[];
      return rows.map((row) => ({
        ...(row.binding_id === null ? {} : { bindingId: String(row.binding_id) }),
        ...(row.binding_key === null ? {} : { bindingKey: String(row.binding_key) }),
        operation: row.operation as MemoryOperationType,
        succeeded: Number(row.succeeded),
        failed: Number(row.failed),
        droppedOutOfScope: Number(row.dropped),
      }));
    },

    async appendHookDeliveries(entries) {
      if (entries.length === 0) return;
      const statement = prepare(
        `INSERT INTO memory_hook_deliveries (id, company_id, hook_id, hook_kind, receiver, binding_id, status, attempts, error,
           operation_id, started_at, finished_at, latency_ms)
         VALUES (@id, @company_id, @hook_id, @hook_kind, @receiver, @binding_id, @status, @attempts, @error,
           @operation_id, @started_at, @finished_at, @latency_ms)`,
      );
      transaction(() => {
        for (const entry of entries) statement.run(deliveryToRow(entry));
      });
    },

    async listHookDeliveries(filter, request) {
      return page(deliveryFilterQuery(filter), request, rowToDelivery);
    },

    async upsertExtractionJobs(entries) {
      if (entries.length === 0) return;
      const statement = prepare(
        `INSERT INTO memory_extraction_jobs (id, company_id, binding_id, binding_key, operation_id, provider_job_id, hook_kind, status,
           source_json, scope_json, error, submitted_at, started_at, finished_at, retry_count, created_at, updated_at)
         VALUES (@id, @company_id, @binding_id, @binding_key, @operation_id, @provider_job_id, @hook_kind, @status,
           @source_json, @scope_json, @error, @submitted_at, @started_at, @finished_at, @retry_count, @created_at, @updated_at)
         ON CONFLICT (binding_id, provider_job_id) DO UPDATE SET
           status = excluded.status, error = excluded.error, submitted_at = excluded.submitted_at, started_at = excluded.started_at,
           finished_at = excluded.finished_at, retry_count = excluded.retry_count, updated_at = excluded.updated_at
         WHERE memory_extraction_jobs.company_id = excluded.company_id`,
      );
      transaction(() => {
        for (const entry of entries) statement.run(jobToRow(entry));
      });
    },

    async getExtractionJob(companyId, jobId) {
      const row = prepare('SELECT * FROM memory_extraction_jobs WHERE company_id = ? AND id = ?').get(companyId, jobId) as Row | undefined;
      return row === undefined ? undefined : rowToJob(row);
    },

    async listExtractionJobs(filter, request) {
      return page(jobFilterQuery(filter), request, rowToJob);
    },
  };
}
