import { countOperationsSql, deliveryFilterQuery, equalityQuery, jobFilterQuery, operationFilterQuery, postgresDialect } from '../support/store-filters';
import { deliveryColumns, deliveryValues, jobColumns, jobValues, rowToDelivery, rowToJob } from '../support/job-rows';
import { jsonParsedCodec, type StoreRow } from '../support/store-row-codec';
import { rowToActivity } from '../support/binding-rows';
import { rowToOperation, rowToOperationCount } from '../support/operation-rows';
import type { MemoryStoreLogMethods } from '../memory-store-method-groups';
import { batchInsertSql, batchParametersOf } from './postgres-batch-insert';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';
import type { OperationHours } from './postgres-operation-hours';
import type { PostgresPager } from './postgres-pages';

type Row = StoreRow;
const toOperation = (row: Row) => rowToOperation(row, jsonParsedCodec);
const toJob = (row: Row) => rowToJob(row, jsonParsedCodec);


/** The activity, operation, hook delivery and extraction job tables of the Postgres store. */
export function createPostgresLogMethods(
  connection: PostgresConnection,
  table: (name: string) => string,
  page: PostgresPager,
  hours: OperationHours,
): MemoryStoreLogMethods {
  const insertDeliveriesSql = batchInsertSql(table('memory_hook_deliveries'), deliveryColumns);
  const jobPlaceholders = jobColumns.map((_, index) => `$${index + 1}`).join(', ');
  const upsertJobSql = `INSERT INTO ${table('memory_extraction_jobs')} (${jobColumns.map((column) => column.name).join(', ')}) VALUES (${jobPlaceholders})
    ON CONFLICT (binding_id, provider_job_id) DO UPDATE SET
      status = excluded.status, error = excluded.error, submitted_at = excluded.submitted_at, started_at = excluded.started_at,
      finished_at = excluded.finished_at, retry_count = excluded.retry_count, updated_at = excluded.updated_at
    WHERE memory_extraction_jobs.company_id = excluded.company_id`;

  return {
    listActivity: (companyId, request) =>
      storeCall('list activity', () => page(equalityQuery(postgresDialect, 'memory_activity', companyId), request, (row) => rowToActivity(row, jsonParsedCodec))),

    appendOperations: (entries) => storeCall('append operations', () => hours.append(entries)),

    listOperations: (filter, request) =>
      storeCall('list operations', async () => page(hours.narrow(operationFilterQuery(postgresDialect, filter), filter), request, toOperation)),

    getOperation: (companyId, operationId) =>
      storeCall('read an operation', async () => {
        const rows = await connection.query<Row>(`SELECT * FROM ${table('memory_operations')} WHERE company_id = $1 AND id = $2`, [companyId, operationId]);
        return rows[0] === undefined ? undefined : toOperation(rows[0]);
      }),

    countOperations: (filter) =>
      storeCall('count operations', async () => {
        const query = hours.narrow(operationFilterQuery(postgresDialect, { companyId: filter.companyId, from: filter.from, to: filter.to }), filter);
        const rows = await connection.query<Row>(countOperationsSql(query, table('memory_operations')), query.values);
        return rows.map(rowToOperationCount);
      }),

    appendHookDeliveries: (entries) =>
      storeCall('append hook deliveries', async () => {
        if (entries.length > 0) await connection.query(insertDeliveriesSql, batchParametersOf(entries, deliveryValues, deliveryColumns.length));
      }),

    listHookDeliveries: (filter, request) => storeCall('list hook deliveries', () => page(deliveryFilterQuery(postgresDialect, filter), request, rowToDelivery)),

    upsertExtractionJobs: (entries) =>
      storeCall('write extraction jobs', async () => {
        if (entries.length === 0) return;
        // One statement per job: a multi-row upsert refuses two rows that hit the same job.
        await connection.transaction(async (client) => {
          for (const entry of entries) await client.query(upsertJobSql, jobValues(entry));
        });
      }),

    getExtractionJob: (companyId, jobId) =>
      storeCall('read an extraction job', async () => {
        const rows = await connection.query<Row>(`SELECT * FROM ${table('memory_extraction_jobs')} WHERE company_id = $1 AND id = $2`, [companyId, jobId]);
        return rows[0] === undefined ? undefined : toJob(rows[0]);
      }),

    listExtractionJobs: (filter, request) => storeCall('list extraction jobs', () => page(jobFilterQuery(postgresDialect, filter), request, toJob)),
  };
}
