import { parseInput } from '@memplane/core';
import type { MemoryServiceStore, MemoryStorePage, MemoryStorePageRequest } from '@memplane/service';
import type pg from 'pg';
import { z } from 'zod';
import { createPostgresBindingMethods, storeCall } from './postgres-binding-methods';
import { createPostgresConnection } from './postgres-connection';
import { bind, deliveryFilterQuery, jobFilterQuery, operationFilterQuery, type FilterQuery } from './postgres-filters';
import { applyPostgresMigrations, quoteIdentifier } from './postgres-migrations';
import {
  deliveryColumns,
  deliveryToRecord,
  jobColumns,
  jobValues,
  operationColumns,
  operationToRecord,
  recordsetInsert,
  rowToActivity,
  rowToDelivery,
  rowToJob,
  rowToOperation,
  type Row,
} from './postgres-rows';

/** Settings of {@link createPostgresMemoryServiceStore}. Give `connectionString` or `pool`. */
export interface PostgresMemoryServiceStoreSettings {
  /** A libpq connection string, such as `postgres://user:password@host:5432/database`. The store opens and owns a pool. */
  connectionString?: string;
  /** A pool you own (shared with your application); the store never ends it. */
  pool?: pg.Pool;
  /**
   * The schema the tables live in, created by `migrate()` when missing. Lower-case letters,
   * digits and `_`, starting with a letter or `_`. Default `memplane`.
   */
  schema?: string;
  /** The most connections of a pool the store opens. Default 10. */
  maxConnections?: number;
}

const settingsSchema = z
  .strictObject({
    connectionString: z.string().min(1).max(4096).optional(),
    pool: z.custom<pg.Pool>((value) => typeof value === 'object' && value !== null && typeof (value as pg.Pool).connect === 'function', 'must be a pg Pool').optional(),
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be 1 to 63 of a-z, 0-9 and "_", starting with a letter or "_"').optional(),
    maxConnections: z.number().int().min(1).max(1000).optional(),
  })
  .refine((settings) => (settings.connectionString === undefined) !== (settings.pool === undefined), {
    message: 'give exactly one of connectionString and pool',
    path: ['connectionString'],
  });

/**
 * The store on Postgres through `pg`: the same contract as the SQLite store (it passes the same
 * shared suite), for services that run on several machines. Each binding change is one
 * transaction with its activity entries; each log append is one statement, the whole batch
 * sent as one JSON parameter. The schema is versioned (`memplane_schema_migrations`) and
 * brought up to date by `migrate()`, which concurrent processes may call at once.
 */
export function createPostgresMemoryServiceStore(settings: PostgresMemoryServiceStoreSettings): MemoryServiceStore {
  const valid = parseInput(settingsSchema, settings, 'Postgres store settings', 'settings');
  const schema = valid.schema ?? 'memplane';
  const quoted = quoteIdentifier(schema);
  const table = (name: string) => `${quoted}.${name}`;
  const connection = createPostgresConnection({
    ...(valid.pool === undefined ? {} : { pool: valid.pool }),
    ...(valid.connectionString === undefined ? {} : { connectionString: valid.connectionString }),
    maxConnections: valid.maxConnections ?? 10,
  });
  const insertOperationsSql = recordsetInsert(table('memory_operations'), operationColumns);
  const insertDeliveriesSql = recordsetInsert(table('memory_hook_deliveries'), deliveryColumns);
  const jobPlaceholders = jobColumns.split(', ').map((_, index) => `$${index + 1}`).join(', ');
  const upsertJobSql = `INSERT INTO ${table('memory_extraction_jobs')} (${jobColumns}) VALUES (${jobPlaceholders})
    ON CONFLICT (binding_id, provider_job_id) DO UPDATE SET
      status = excluded.status, error = excluded.error, submitted_at = excluded.submitted_at, started_at = excluded.started_at,
      finished_at = excluded.finished_at, retry_count = excluded.retry_count, updated_at = excluded.updated_at
    WHERE memory_extraction_jobs.company_id = excluded.company_id`;

  async function page<Entry>(query: FilterQuery, request: MemoryStorePageRequest, toEntry: (row: Row) => Entry): Promise<MemoryStorePage<Entry>> {
    const limit = Math.max(1, Math.min(500, Math.floor(request.limit)));
    const where = [...query.where];
    if (request.after !== undefined) where.push(`position < ${bind(query, request.after)}`);
    const sql = `SELECT * FROM ${table(query.table)} WHERE ${where.join(' AND ')} ORDER BY position DESC LIMIT ${bind(query, limit + 1)}`;
    const rows = await connection.query<Row>(sql, query.values);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(toEntry),
      ...(rows.length > limit && last !== undefined ? { nextAfter: Number(last.position) } : {}),
    };
  }

  return {
    kind: 'postgres',

    migrate: () => storeCall('migrate', async () => void (await applyPostgresMigrations(connection.transaction, schema))),

    close: () => connection.close(),

    ...createPostgresBindingMethods(connection, table),

    listActivity: (companyId, request) =>
      storeCall('list activity', () =>
        page({ table: 'memory_activity', where: ['company_id = $1'], values: [companyId] }, request, rowToActivity),
      ),

    appendOperations: (entries) =>
      storeCall('append operations', async () => {
        if (entries.length > 0) await connection.query(insertOperationsSql, [JSON.stringify(entries.map(operationToRecord))]);
      }),

    listOperations: (filter, request) => storeCall('list operations', () => page(operationFilterQuery(filter), request, rowToOperation)),

    getOperation: (companyId, operationId) =>
      storeCall('read an operation', async () => {
        const rows = await connection.query<Row>(`SELECT * FROM ${table('memory_operations')} WHERE company_id = $1 AND id = $2`, [
          companyId,
          operationId,
        ]);
        return rows[0] === undefined ? undefined : rowToOperation(rows[0]);
      }),

    countOperations: (filter) =>
      storeCall('count operations', async () => {
        const query = operationFilterQuery({ companyId: filter.companyId, from: filter.from, to: filter.to });
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
          operation: row.operation as never,
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
        const rows = await connection.query<Row>(`SELECT * FROM ${table('memory_extraction_jobs')} WHERE company_id = $1 AND id = $2`, [
          companyId,
          jobId,
        ]);
        return rows[0] === undefined ? undefined : rowToJob(rows[0]);
      }),

    listExtractionJobs: (filter, request) => storeCall('list extraction jobs', () => page(jobFilterQuery(filter), request, rowToJob)),
  };
}
