/**
 * A child process for the end-to-end crash test: an engine over a real SQLite or Postgres store
 * memorizes a conversation; inside the persist transaction, right after the items are written,
 * it says `mid-transaction` and hangs until the test kills it. The store is the real one; only
 * `insertItems` of the transaction is wrapped, to mark the moment.
 */
import { z } from 'zod';
import { createMemoryEngine } from '../engine/create-memory-engine';
import type { EngineStore, EngineStoreSession } from '../store/engine-store';
import { createPostgresEngineStore } from '../store/postgres/postgres-engine-store';
import { createSqliteEngineStore } from '../store/sqlite/sqlite-engine-store';
import { crashConversation } from './crash-conversation';

const environment = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new TypeError(`The crash writer needs ${name}.`);
  return value;
};

const real: EngineStore =
  environment('MEMPLANE_TEST_BACKEND') === 'sqlite'
    ? createSqliteEngineStore({ path: environment('MEMPLANE_TEST_SQLITE_PATH') })
    : createPostgresEngineStore({ connectionString: environment('MEMPLANE_TEST_POSTGRES_URL'), schema: environment('MEMPLANE_TEST_SCHEMA'), maxConnections: 2 });
const store: EngineStore = Object.assign(Object.create(real) as EngineStore, {
  transaction: <T>(work: (tx: EngineStoreSession) => Promise<T>) =>
    real.transaction((tx) =>
      work(
        Object.assign(Object.create(tx) as EngineStoreSession, {
          async insertItems(items: Parameters<EngineStoreSession['insertItems']>[0]) {
            await tx.insertItems(items);
            process.send?.({ type: 'mid-transaction', items: items.length });
            // Never returns: the test kills this process inside the transaction.
            await new Promise<never>(() => undefined);
          },
        }),
      ),
    ),
});
const engine = await createMemoryEngine({ scope: z.object({ companyId: z.string(), agentId: z.string() }), store });
await engine.memorize({ companyId: 'acme', agentId: 'planner' }, crashConversation);
