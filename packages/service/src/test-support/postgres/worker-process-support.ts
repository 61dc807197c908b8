/**
 * What the worker processes of the queue and service tests share: their settings from the
 * environment, a pool for recording their runs (each change is followed by a NOTIFY so the
 * test waits on events, not delays), the wait until enough workers have started, and a clean
 * stop when the test asks for it.
 */
import pg from 'pg';
import type { PgBossJobQueueSettings } from '../../queue/pg-boss/pg-boss-job-queue';
import { waitForDatabaseCondition } from './database-condition';

/** One test worker process, set up from the environment the test gave it. */
export function createTestWorker(role: string) {
  const read = (name: string): string => {
    const value = process.env[name];
    if (value === undefined) throw new TypeError(`The ${role} needs ${name}.`);
    return value;
  };
  const url = read('MEMPLANE_TEST_POSTGRES_URL');
  const worker = read('MEMPLANE_WORKER_NAME');
  const runs = read('MEMPLANE_TEST_RUNS_TABLE');
  const channel = read('MEMPLANE_TEST_CHANNEL');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let met = false;

  return {
    read,
    url,
    worker,
    runs,
    /** The pg-boss queue settings every test worker uses: fast polling, no retry delay. */
    queueSettings(): PgBossJobQueueSettings {
      return {
        connectionString: url,
        schema: read('MEMPLANE_TEST_QUEUE_SCHEMA'),
        pollingIntervalSeconds: 0.5,
        maintenanceIntervalSeconds: 1,
        expireInSeconds: Number(read('MEMPLANE_TEST_EXPIRE_SECONDS')),
        retryDelaySeconds: 0,
      };
    },
    /** Runs one statement on the runs table, then tells the test something changed. */
    async record(sql: string, values: unknown[]): Promise<void> {
      await pool.query(sql, values);
      await pool.query('SELECT pg_notify($1, $2)', [channel, worker]);
    },
    /** The first time only: waits until `workers` workers have each started a run. */
    async meetOnce(workers: number | undefined, what: string): Promise<void> {
      if (workers === undefined || met) return;
      await waitForDatabaseCondition(
        url,
        channel,
        async (client) => Number((await client.query(`SELECT count(DISTINCT worker) AS workers FROM ${runs}`)).rows[0].workers) >= workers,
        { deadlineMs: 20_000, description: `${workers} workers to start ${what}` },
      );
      met = true;
    },
    /** Says ready, and on the test's `stop` message closes `close` and the pool, then exits. */
    ready(close: () => Promise<void>): void {
      process.send?.({ type: 'ready' });
      process.on('message', (message: { type?: string }) => {
        if (message.type !== 'stop') return;
        void (async () => {
          await close();
          await pool.end();
          process.exit(0);
        })();
      });
    },
  };
}
