import type { MemoryDeliveryClaim, MemoryDeliveryKeyStore } from '../memory-delivery-key-store';
import type { SqliteConnection } from './sqlite-connection';

interface ClaimRow {
  state: 'started' | 'written';
  operation_id: string | null;
  record_ids_json: string | null;
  attempts: number;
}

/** The idempotency keys of queued hook deliveries, on SQLite. */
export function createSqliteDeliveryKeyMethods(connection: SqliteConnection): MemoryDeliveryKeyStore {
  const { prepare, transaction } = connection;
  return {
    async claimDelivery(companyId, deliveryKey, at) {
      return transaction((): MemoryDeliveryClaim => {
        const row = prepare(
          `INSERT INTO memory_delivery_keys (company_id, delivery_key, state, attempts, updated_at) VALUES (?, ?, 'started', 1, ?)
           ON CONFLICT (company_id, delivery_key) DO UPDATE SET attempts = attempts + 1, updated_at = excluded.updated_at
           RETURNING state, operation_id, record_ids_json, attempts`,
        ).get(companyId, deliveryKey, at) as ClaimRow;
        if (row.state === 'written') {
          return { state: 'written', ...(row.operation_id === null ? {} : { operationId: row.operation_id }), recordIds: JSON.parse(row.record_ids_json ?? '[]') as string[] };
        }
        return { state: row.attempts > 1 ? 'started' : 'new' };
      });
    },

    async completeDelivery(companyId, deliveryKey, written, at) {
      prepare(
        `UPDATE memory_delivery_keys SET state = 'written', operation_id = ?, record_ids_json = ?, updated_at = ?
         WHERE company_id = ? AND delivery_key = ?`,
      ).run(written.operationId, JSON.stringify(written.recordIds), at, companyId, deliveryKey);
    },

    async pruneDeliveryKeys(companyId, before) {
      // Times are stored as ISO strings of one format, so text order is time order.
      return prepare('DELETE FROM memory_delivery_keys WHERE company_id = ? AND updated_at < ?').run(companyId, before).changes;
    },
  };
}
