import type { MemoryOperationType, MemoryServiceStore } from '@memplane/service';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';
import { deliveryFilterQuery, jobFilterQuery, operationFilterQuery } from './postgres-filters';
import type { OperationHours } from './postgres-operation-hours';
import type { PostgresPager } from './postgres-pages';
import { rowToOperation } from './postgres-operation-rows';
import { deliveryColumns, deliveryToRecord, jobColumns, jobValues, recordsetInsert, rowToActivity, rowToDelivery, rowToJob, type Row } from './postgres-rows';

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

/** The activity, operation, hook delivery and extraction job tables of the Postgres store. */
export function createPostgresLogMethods(
  connection: PostgresConnection,
  table: (name: string) => string,
  page: PostgresPager,
  hours: OperationHours,
): LogMethods {
  const insertDeliveriesSql = recordsetInsert(table('memory_hook_deliveries'), deliveryColumns);
  const jobPlaceholders = jobColumns.split(', ').map((_, index) => `$${index + 1}`).join(', ');
  const upsertJobSql = `INSERT INTO ${table('memory_extraction_jobs')} (${jobColumns}) VALUES (${jobPlaceholders})
    ON CONFLICT (binding_id, provider_job_id) DO UPDATE SET
      status = excluded.status, error = excluded.error, submitted_at = excluded.submitted_at, started_at = excluded.started_at,
      finished_at = excluded.finished_at, retry_count = excluded.retry_count, updated_at = excluded.updated_at
    WHERE memory_extraction_jobs.company_id = excluded.company_id`;

  return {
    listActivity: (companyId, request) =>
      storeCall('list activity', () => page({ table: 'memory_activity', where: ['company_id = $1'], values: [companyId] }, request, rowToActivity)),

    appendOperations: (entries) => storeCall('append operations', () => hours.append(entries)),

    listOperations: (filter, request) =>
      storeCall('list operations', async () => page(hours.narrow(operationFilterQuery(filter), filter), request, rowToOperation)),

    getOperation: (companyId, operationId) =>
      storeCall('read an operation', async () => {
        const rows = await connection.query<Row>(`SELECT * FROM ${table('memory_operations')} WHERE company_id = $1 AND id = $2`, [companyId, operationId]);
        return rows[0] === undefined ? undefined : rowToOperation(rows[0]);
      }),

    countOperations: (filter) =>
      storeCall('count operations', async () => {
        const query = hours.narrow(operationFilterQuery({ companyId: filter.companyId, from: filter.from, to: filter.to }), filter);
        const rows = await connection.query<Row>(
          `SELECT binding_id, binding_key, operation,
             count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
             count(*) FILTER (WHERE status = 'failed') AS failed,
             coalesce(sum(dropped_out_of_scope), 0) AS dropped
           FROM ${table('memory_operations')} WHERE ${query.where.join(' AND ')}
           GROUP BY binding_id, binding_key, operation
           ORDER BY binding_key NULLS FIRST, operation`,
          query.values,
        );
        return rows.map((row) => ({
          ...(row.binding_id === null ? {} : { bindingId: String(row.binding_id) }),
          ...(row.binding_key === null ? {} : { bindingKey: String(row.binding_key) }),
          operation: row.operation as MemoryOperationType,
          succeeded: Number(row.succeeded),
          failed: Number(row.failed),
          droppedOutOfScope: Number(row.dropped),
        }));
      }),

    appendHookDeliveries: (entries) =>
      storeCall('append hook deliveries', async () => {
        if (entries.length > 0) await connection.query(insertDeliveriesSql, [JSON.stringify(entries.map(deliveryToRecord))]);
      }),

    listHookDeliveries: (filter, request) => storeCall('list hook deliveries', () => page(deliveryFilterQuery(filter), request, rowToDelivery)),

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
        return rows[0] === undefined ? undefined : rowToJob(rows[0]);
      }),

    listExtractionJobs: (filter, request) => storeCall('list extraction jobs', () => page(jobFilterQuery(filter), request, rowToJob)),
  };
}
