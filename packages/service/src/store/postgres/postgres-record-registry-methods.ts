import type { MemoryScope } from '@memplane/core';
import type { MemoryRecordRegistryStore, MemoryRegisteredRecord } from '../memory-record-registry-store';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';

interface RegistryRow {
  company_id: string;
  binding_id: string;
  provider_id: string;
  provider_record_id: string;
  scope_json: MemoryScope;
  registered_at: Date | string;
}

const toRecord = (row: RegistryRow): MemoryRegisteredRecord => ({
  companyId: row.company_id,
  bindingId: row.binding_id,
  providerId: row.provider_id,
  providerRecordId: row.provider_record_id,
  scope: row.scope_json,
  registeredAt: row.registered_at instanceof Date ? row.registered_at.toISOString() : row.registered_at,
});

/** The registry of handles written through the service, on Postgres: each call is one statement. */
export function createPostgresRecordRegistryMethods(connection: PostgresConnection, table: (name: string) => string): MemoryRecordRegistryStore {
  const registry = table('memory_record_registry');
  return {
    registerRecords: (entries) =>
      storeCall('register records', async () => {
        if (entries.length === 0) return;
        await connection.query(
          `INSERT INTO ${registry} (provider_id, provider_record_id, binding_id, company_id, scope_json, registered_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[])
           ON CONFLICT DO NOTHING`,
          [
            entries.map((entry) => entry.providerId),
            entries.map((entry) => entry.providerRecordId),
            entries.map((entry) => entry.bindingId),
            entries.map((entry) => entry.companyId),
            entries.map((entry) => JSON.stringify(entry.scope)),
            entries.map((entry) => entry.registeredAt),
          ],
        );
      }),

    placeRecords: (companyId, providerId, providerRecordIds) =>
      storeCall('place records', async () => {
        const own: MemoryRegisteredRecord[] = [];
        const foreign = new Set<string>();
        if (providerRecordIds.length === 0) return { own, foreignIds: [] };
        const rows = await connection.query<RegistryRow>(
          `SELECT company_id, binding_id, provider_id, provider_record_id, scope_json, registered_at FROM ${registry}
           WHERE provider_id = $1 AND provider_record_id = ANY($2::text[])`,
          [providerId, [...new Set(providerRecordIds)]],
          'memplane_place_records',
        );
        for (const row of rows) {
          if (row.company_id === companyId) own.push(toRecord(row));
          else foreign.add(row.provider_record_id);
        }
        return { own, foreignIds: [...foreign] };
      }),

    unregisterRecords: (companyId, bindingId, providerRecordIds) =>
      storeCall('unregister records', async () => {
        if (providerRecordIds.length === 0) return;
        await connection.query(`DELETE FROM ${registry} WHERE company_id = $1 AND binding_id = $2 AND provider_record_id = ANY($3::text[])`, [
          companyId,
          bindingId,
          providerRecordIds,
        ]);
      }),
  };
}
