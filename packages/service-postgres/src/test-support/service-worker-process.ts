/**
 * A memory service worker process for the tests: the service on the Postgres store, taking
 * queued hook deliveries from the pg-boss queue. It subscribes to `manual_capture` under its
 * own name, so every delivery it makes is recorded with it, and records each delivery it
 * starts and finishes in a table, notifying the test after every change. A note whose text
 * contains `hang:<worker>` makes that worker hang mid-delivery (the test kills it); with
 * MEMPLANE_TEST_MEET_WORKERS set, a worker's first delivery waits until that many workers
 * have each started one, so every worker provably takes part.
 */
import { createMemoryService } from '@memplane/service';
import pg from 'pg';
import { createPgBossJobQueue } from '../queue/pg-boss-job-queue';
import { createPostgresMemoryServiceStore } from '../store/postgres-memory-service-store';
import { waitForDatabaseCondition } from './database-condition';

const read = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new TypeError(`The service worker needs ${name}.`);
  return value;
};

const url = read('MEMPLANE_TEST_POSTGRES_URL');
const worker = read('MEMPLANE_WORKER_NAME');
const runs = read('MEMPLANE_TEST_RUNS_TABLE');
const channel = read('MEMPLANE_TEST_CHANNEL');
const meetWorkers = process.env.MEMPLANE_TEST_MEET_WORKERS === undefined ? undefined : Number(process.env.MEMPLANE_TEST_MEET_WORKERS);
const pool = new pg.Pool({ connectionString: url, max: 2 });

const service = await createMemoryService({
  store: createPostgresMemoryServiceStore({ connectionString: url, schema: read('MEMPLANE_TEST_STORE_SCHEMA'), maxConnections: 4 }),
  queue: createPgBossJobQueue({
    connectionString: url,
    schema: read('MEMPLANE_TEST_QUEUE_SCHEMA'),
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
    expireInSeconds: Number(read('MEMPLANE_TEST_EXPIRE_SECONDS')),
    retryDelaySeconds: 0,
  }),
  hooks: { timeoutMs: 60_000, maxAttempts: 1 },
  operationLog: { batchSize: 1 },
});

async function record(sql: string, values: unknown[]): Promise<void> {
  await pool.query(sql, values);
  await pool.query('SELECT pg_notify($1, $2)', [channel, worker]);
}

let met = false;
service.hooks.subscribe('manual_capture', {
  name: worker,
  async deliver(delivery) {
    const hookId = delivery.hook.hookId;
    await record(`INSERT INTO ${runs} (job_key, worker, attempt, state) VALUES ($1, $2, 0, 'started')`, [hookId, worker]);
    if (delivery.payload?.text?.includes(`hang:${worker}`) === true) {
      // Never finishes: the test kills this process while the delivery is under way.
      await new Promise<never>(() => undefined);
    }
    if (meetWorkers !== undefined && !met) {
      await waitForDatabaseCondition(
        url,
        channel,
        async (client) => Number((await client.query(`SELECT count(DISTINCT worker) AS workers FROM ${runs}`)).rows[0].workers) >= meetWorkers,
        { deadlineMs: 20_000, description: `${meetWorkers} workers to start a delivery` },
      );
      met = true;
    }
    await record(`UPDATE ${runs} SET state = 'finished' WHERE job_key = $1 AND worker = $2`, [hookId, worker]);
  },
});
await service.startWorker({ concurrency: 2 });
process.send?.({ type: 'ready' });

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'stop') return;
  void (async () => {
    await service.close();
    await pool.end();
    process.exit(0);
  })();
});
