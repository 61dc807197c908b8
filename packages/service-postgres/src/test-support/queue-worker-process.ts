/**
 * A worker process for the queue tests: takes `hook_delivery` jobs from the pg-boss queue and
 * records each run in a table, notifying the test after every change. Payload fields:
 * `key` names the job; `hangIn` makes the named worker hang mid-job (the test kills it);
 * `meetWorkers` makes a worker's first job wait until that many workers have each started one,
 * so every worker provably takes part.
 */
import pg from 'pg';
import { createPgBossJobQueue } from '../queue/pg-boss-job-queue';
import { waitForDatabaseCondition } from './database-condition';

const read = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new TypeError(`The queue worker needs ${name}.`);
  return value;
};

const url = read('MEMPLANE_TEST_POSTGRES_URL');
const worker = read('MEMPLANE_WORKER_NAME');
const runs = read('MEMPLANE_TEST_RUNS_TABLE');
const channel = read('MEMPLANE_TEST_CHANNEL');
const pool = new pg.Pool({ connectionString: url, max: 2 });
const queue = createPgBossJobQueue({
  connectionString: url,
  schema: read('MEMPLANE_TEST_QUEUE_SCHEMA'),
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
  expireInSeconds: Number(read('MEMPLANE_TEST_EXPIRE_SECONDS')),
  retryDelaySeconds: 0,
});

async function record(sql: string, values: unknown[]): Promise<void> {
  await pool.query(sql, values);
  await pool.query('SELECT pg_notify($1, $2)', [channel, worker]);
}

let met = false;

await queue.start();
await queue.work({
  async hook_delivery(job) {
    const { key, hangIn, meetWorkers } = job.payload as { key: string; hangIn?: string; meetWorkers?: number };
    await record(`INSERT INTO ${runs} (job_key, worker, attempt, state) VALUES ($1, $2, $3, 'started')`, [key, worker, job.attempt]);
    if (hangIn === worker) {
      // Never finishes: the test kills this process while the job is active.
      await new Promise<never>(() => undefined);
    }
    if (meetWorkers !== undefined && !met) {
      await waitForDatabaseCondition(
        url,
        channel,
        async (client) => Number((await client.query(`SELECT count(DISTINCT worker) AS workers FROM ${runs}`)).rows[0].workers) >= meetWorkers,
        { deadlineMs: 20_000, description: `${meetWorkers} workers to start a job` },
      );
      met = true;
    }
    await record(`UPDATE ${runs} SET state = 'finished' WHERE job_key = $1 AND worker = $2 AND attempt = $3`, [key, worker, job.attempt]);
  },
});
process.send?.({ type: 'ready' });

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'stop') return;
  void (async () => {
    await queue.stop();
    await pool.end();
    process.exit(0);
  })();
});
