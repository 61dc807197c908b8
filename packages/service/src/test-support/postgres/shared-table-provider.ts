/**
 * A provider whose records live in one Postgres table that every worker process shares, the
 * way a hosted provider is shared: a write made by a worker that is killed afterwards is still
 * there for the next worker to find. It filters lists by the delivery key a queued capture
 * carries in its metadata. A capture whose text contains `hang-after-write:<worker>` makes
 * that worker hang right after the write (the test kills it); `stall-provider` makes every
 * worker's call hang before it writes (a slow provider).
 */
import type { MemoryAdapter, MemoryProviderDefinition } from '@memplane/core';
import pg from 'pg';

/** Creates the provider's table. */
export async function createSharedTable(client: pg.Client, table: string): Promise<void> {
  await client.query(`CREATE TABLE ${table} (id text PRIMARY KEY, delivery_key text, text text NOT NULL, scope jsonb NOT NULL, worker text NOT NULL)`);
}

/**
 * The provider, writing into `table` as `worker`; `onWrite` is told after each write. `close`
 * ends its connection pool (kept beside the definition, which holds only what a description may).
 */
export function sharedTableProvider(
  url: string,
  table: string,
  worker: string,
  onWrite: () => Promise<void> = async () => undefined,
): { provider: MemoryProviderDefinition; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let sequence = 0;
  const capabilities = { metadataFilter: true };
  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key: 'shared-table',
    capabilities,
    async capture(request) {
      const text = request.payload.text ?? '';
      if (text.includes('stall-provider')) await new Promise<never>(() => undefined);
      sequence += 1;
      const id = `${worker}-${process.pid}-${sequence}`;
      const deliveryKey = typeof request.metadata?.memplaneDeliveryKey === 'string' ? request.metadata.memplaneDeliveryKey : null;
      await pool.query(`INSERT INTO ${table} (id, delivery_key, text, scope, worker) VALUES ($1, $2, $3, $4, $5)`, [id, deliveryKey, text, JSON.stringify(request.scope), worker]);
      await onWrite();
      // Killed here: the write is in the provider, and nothing in the service says so yet.
      if (text.includes(`hang-after-write:${worker}`)) await new Promise<never>(() => undefined);
      return { records: [{ providerKey: 'shared-table', providerRecordId: id }] };
    },
    upsertRecords: async () => ({}),
    query: async () => ({ snippets: [] }),
    async list(request) {
      const key = request.metadataFilter?.memplaneDeliveryKey;
      const { rows } = await pool.query<{ id: string; text: string; scope: Record<string, string> }>(
        `SELECT id, text, scope FROM ${table} WHERE $1::text IS NULL OR delivery_key = $1 ORDER BY id`,
        [typeof key === 'string' ? key : null],
      );
      return { items: rows.map((row) => ({ handle: { providerKey: 'shared-table', providerRecordId: row.id }, text: row.text, scope: { ...row.scope, companyId: row.scope.companyId! } })) };
    },
    get: async () => null,
    forget: async () => ({}),
    correct: async () => ({ record: { providerKey: 'shared-table', providerRecordId: 'none' } }),
    profile: async () => ({ summary: '' }),
    getExtractionJob: async () => ({ job: null }),
    listExtractionJobs: async () => ({ items: [] }),
    retryExtractionJob: async () => ({ job: { providerJobId: 'none', status: 'failed' } }),
    explain: async () => ({ steps: [] }),
  };
  return {
    provider: {
      providerId: 'shared-table',
      description: 'Records in one Postgres table shared by every worker (test only).',
      capabilities,
      create: () => adapter,
    },
    close: () => pool.end(),
  };
}
