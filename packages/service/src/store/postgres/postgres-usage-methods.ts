import type { MemoryBindingUsage } from '../memory-accounting-records';
import { operationFilterQuery, postgresDialect } from '../support/store-filters';
import type { MemoryStoreUsageMethods } from '../memory-store-method-groups';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection, Queryable } from './postgres-connection';
import type { OperationHours } from './postgres-operation-hours';


/** The per-binding usage that quotas check, and the retention of the operation log. */
export function createPostgresUsageMethods(connection: PostgresConnection, table: (name: string) => string, hours: OperationHours): MemoryStoreUsageMethods {
  const usage = table('memory_binding_usage');
  const counted = table('memory_binding_records');
  const readUsage = async (client: Queryable, companyId: string, bindingId: string): Promise<MemoryBindingUsage> => {
    const { rows } = await client.query<{ records: string; bytes: string }>(`SELECT records, bytes FROM ${usage} WHERE company_id = $1 AND binding_id = $2`, [
      companyId,
      bindingId,
    ]);
    return { records: Number(rows[0]?.records ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  };
  const ensureUsage = (client: Queryable, companyId: string, bindingId: string) =>
    client.query(`INSERT INTO ${usage} (binding_id, company_id, records, bytes) VALUES ($1, $2, 0, 0) ON CONFLICT (binding_id) DO NOTHING`, [
      bindingId,
      companyId,
    ]);
  // Usage never goes below zero, whatever was released.
  const adjust = (client: Queryable, companyId: string, bindingId: string, records: number, bytes: number) =>
    client.query(
      `UPDATE ${usage} SET records = GREATEST(0, records + $3), bytes = GREATEST(0, bytes + $4) WHERE company_id = $1 AND binding_id = $2`,
      [companyId, bindingId, records, bytes],
    );

  return {
    getBindingUsage: (companyId, bindingId) => storeCall('read binding usage', () => connection.transaction((client) => readUsage(client, companyId, bindingId))),

    reserveBindingUsage: (companyId, bindingId, delta, caps) =>
      storeCall('reserve binding usage', () =>
        connection.transaction(async (client) => {
          await ensureUsage(client, companyId, bindingId);
          // The row lock serialises writers of one binding across processes; the check runs on the locked row.
          await client.query(`SELECT 1 FROM ${usage} WHERE binding_id = $1 FOR UPDATE`, [bindingId]);
          const before = await readUsage(client, companyId, bindingId);
          // A cap only limits what grows: a write that adds no records passes a records cap already reached.
          const fits =
            (delta.records === 0 || caps.maxRecords === undefined || before.records + delta.records <= caps.maxRecords) &&
            (delta.bytes === 0 || caps.maxBytes === undefined || before.bytes + delta.bytes <= caps.maxBytes);
          if (fits) await adjust(client, companyId, bindingId, delta.records, delta.bytes);
          return { reserved: fits, usage: before };
        }),
      ),

    releaseBindingUsage: (companyId, bindingId, delta) =>
      storeCall('release binding usage', () =>
        connection.transaction(async (client) => {
          await adjust(client, companyId, bindingId, -delta.records, -delta.bytes);
        }),
      ),

    settleBindingUsage: (companyId, bindingId, reserved, records) =>
      storeCall('settle binding usage', () =>
        connection.transaction(async (client) => {
          await ensureUsage(client, companyId, bindingId);
          await client.query(`SELECT 1 FROM ${usage} WHERE binding_id = $1 FOR UPDATE`, [bindingId]);
          let added = 0;
          let bytes = 0;
          for (const record of records) {
            const { rows } = await client.query<{ bytes: string }>(`SELECT bytes FROM ${counted} WHERE binding_id = $1 AND provider_record_id = $2`, [
              bindingId,
              record.providerRecordId,
            ]);
            if (rows[0] === undefined) added += 1;
            bytes += record.bytes - Number(rows[0]?.bytes ?? 0);
            await client.query(
              `INSERT INTO ${counted} (binding_id, provider_record_id, company_id, bytes) VALUES ($1, $2, $3, $4)
               ON CONFLICT (binding_id, provider_record_id) DO UPDATE SET bytes = excluded.bytes`,
              [bindingId, record.providerRecordId, companyId, record.bytes],
            );
          }
          await adjust(client, companyId, bindingId, added - reserved.records, bytes - reserved.bytes);
        }),
      ),

    uncountBindingRecords: (companyId, bindingId, providerRecordIds) =>
      storeCall('uncount binding records', async () => {
        if (providerRecordIds.length === 0) return;
        await connection.transaction(async (client) => {
          const { rows } = await client.query<{ removed: string; bytes: string | null }>(
            `WITH removed AS (
               DELETE FROM ${counted} WHERE company_id = $1 AND binding_id = $2 AND provider_record_id = ANY($3::text[]) RETURNING bytes
             )
             SELECT count(*) AS removed, sum(bytes) AS bytes FROM removed`,
            [companyId, bindingId, [...new Set(providerRecordIds)]],
          );
          const removed = Number(rows[0]?.removed ?? 0);
          if (removed > 0) await adjust(client, companyId, bindingId, -removed, -Number(rows[0]?.bytes ?? 0));
        });
      }),

    pruneOperations: (companyId, before, entry) =>
      storeCall('prune operations', () =>
        connection.transaction(async (client) => {
          // The hours give the positions the cut can reach, so the delete never scans the newer log.
          const query = hours.narrow(operationFilterQuery(postgresDialect, { companyId, to: before }), { companyId, to: before });
          const deleted = await client.query(`DELETE FROM ${table('memory_operations')} WHERE ${query.where.join(' AND ')}`, query.values);
          const count = deleted.rowCount ?? 0;
          await hours.append([{ ...entry, resultCount: count }], client);
          // Hours wholly before the cut have no operations left.
          await client.query(
            `DELETE FROM ${table('memory_operation_hours')} WHERE company_id = $1 AND hour < date_trunc('hour', $2::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
            [companyId, before],
          );
          return count;
        }),
      ),

    listCompaniesWithOperationsBefore: (before) =>
      storeCall('list companies to prune', async () => {
        // Candidates come from the hours; the oldest entry of each (first by position) confirms it.
        const rows = await connection.query<{ company_id: string }>(
          `SELECT company_id FROM (
             SELECT DISTINCT company_id FROM ${table('memory_operation_hours')}
             WHERE hour <= date_trunc('hour', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
           ) AS candidates
           WHERE EXISTS (SELECT 1 FROM ${table('memory_operations')} o WHERE o.company_id = candidates.company_id AND o.created_at < $1::timestamptz)
           ORDER BY company_id COLLATE "C"`,
          [before],
        );
        return rows.map((row) => row.company_id);
      }),
  };
}
