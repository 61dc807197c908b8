import type { MemoryDeliveryClaim, MemoryDeliveryKeyStore } from '../memory-delivery-key-store';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';

interface ClaimRow {
  state: 'started' | 'written';
  operation_id: string | null;
  record_ids_json: string[] | null;
  attempts: number;
}

/** The idempotency keys of queued hook deliveries, on Postgres: each call is one statement. */
export function createPostgresDeliveryKeyMethods(connection: PostgresConnection, table: (name: string) => string): MemoryDeliveryKeyStore {
  const keys = table('memory_delivery_keys');
  return {
    claimDelivery: (companyId, deliveryKey, at) =>
      storeCall('claim a delivery', async (): Promise<MemoryDeliveryClaim> => {
        const [row] = await connection.query<ClaimRow>(
          `INSERT INTO ${keys} (company_id, delivery_key, state, attempts, updated_at) VALUES ($1, $2, 'started', 1, $3)
           ON CONFLICT (company_id, delivery_key) DO UPDATE SET attempts = ${keys}.attempts + 1, updated_at = excluded.updated_at
           RETURNING state, operation_id, record_ids_json, attempts`,
          [companyId, deliveryKey, at],
        );
        if (row?.state === 'written') {
          return { state: 'written', ...(row.operation_id === null ? {} : { operationId: row.operation_id }), recordIds: row.record_ids_json ?? [] };
        }
        return { state: (row?.attempts ?? 1) > 1 ? 'started' : 'new' };
      }),

    completeDelivery: (companyId, deliveryKey, written, at) =>
      storeCall('complete a delivery', async () => {
        await connection.query(
          `UPDATE ${keys} SET state = 'written', operation_id = $3, record_ids_json = $4::jsonb, updated_at = $5 WHERE company_id = $1 AND delivery_key = $2`,
          [companyId, deliveryKey, written.operationId, JSON.stringify(written.recordIds), at],
        );
      }),

    pruneDeliveryKeys: (companyId, before) =>
      storeCall('prune delivery keys', async () => {
        const rows = await connection.query<{ company_id: string }>(`DELETE FROM ${keys} WHERE company_id = $1 AND updated_at < $2 RETURNING company_id`, [companyId, before]);
        return rows.length;
      }),
  };
}
