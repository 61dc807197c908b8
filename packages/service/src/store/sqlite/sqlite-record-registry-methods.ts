import type { MemoryScope } from '@memplane/core';
import type { MemoryRecordRegistryStore, MemoryRegisteredRecord } from '../memory-record-registry-store';
import type { SqliteConnection } from './sqlite-connection';

interface RegistryRow {
  company_id: string;
  binding_id: string;
  provider_id: string;
  provider_record_id: string;
  scope_json: string;
  registered_at: string;
}

const toRecord = (row: RegistryRow): MemoryRegisteredRecord => ({
  companyId: row.company_id,
  bindingId: row.binding_id,
  providerId: row.provider_id,
  providerRecordId: row.provider_record_id,
  scope: JSON.parse(row.scope_json) as MemoryScope,
  registeredAt: row.registered_at,
});

// Statements are cached per id count; larger lookups go in chunks of this size.
const chunkSize = 64;

/** The registry of handles written through the service, on SQLite. */
export function createSqliteRecordRegistryMethods(connection: SqliteConnection): MemoryRecordRegistryStore {
  const { prepare, transaction } = connection;
  const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

  return {
    async registerRecords(entries) {
      if (entries.length === 0) return;
      transaction(() => {
        const insert = prepare(
          `INSERT INTO memory_record_registry (provider_id, provider_record_id, binding_id, company_id, scope_json, registered_at)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        );
        for (const entry of entries) {
          insert.run(entry.providerId, entry.providerRecordId, entry.bindingId, entry.companyId, JSON.stringify(entry.scope), entry.registeredAt);
        }
      });
    },

    async placeRecords(companyId, providerId, providerRecordIds) {
      const own: MemoryRegisteredRecord[] = [];
      const foreign = new Set<string>();
      const ids = [...new Set(providerRecordIds)];
      for (let start = 0; start < ids.length; start += chunkSize) {
        const chunk = ids.slice(start, start + chunkSize);
        const rows = prepare(
          `SELECT company_id, binding_id, provider_id, provider_record_id, scope_json, registered_at FROM memory_record_registry
           WHERE provider_id = ? AND provider_record_id IN (${placeholders(chunk.length)})`,
        ).all(providerId, ...chunk) as RegistryRow[];
        for (const row of rows) {
          if (row.company_id === companyId) own.push(toRecord(row));
          else foreign.add(row.provider_record_id);
        }
      }
      return { own, foreignIds: [...foreign] };
    },

    async unregisterRecords(companyId, bindingId, providerRecordIds) {
      if (providerRecordIds.length === 0) return;
      transaction(() => {
        const remove = prepare('DELETE FROM memory_record_registry WHERE company_id = ? AND binding_id = ? AND provider_record_id = ?');
        for (const id of providerRecordIds) remove.run(companyId, bindingId, id);
      });
    },
  };
}
