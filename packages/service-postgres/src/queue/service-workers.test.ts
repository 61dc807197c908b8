import { createMemoryService, type MemoryService } from '@memplane/service';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPostgresMemoryServiceStore } from '../store/postgres-memory-service-store';
import { waitForDatabaseCondition } from '../test-support/database-condition';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../test-support/postgres-test-database';
import { startWorkerProcess, type TestWorkerProcess } from '../test-support/worker-processes';
import { createPgBossJobQueue } from './pg-boss-job-queue';

const admin = { actor: { kind: 'company', companyId: 'acme', userId: 'admin' } } as const;
const system = { actor: { kind: 'system', component: 'heartbeat' }, companyId: 'acme' } as const;

describeWithPostgres('memory service workers on Postgres', (url) => {
  const schemas: string[] = [];
  const workers: TestWorkerProcess[] = [];
  const services: MemoryService[] = [];
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => (worker.child.exitCode === null && worker.child.signalCode === null ? worker.stop() : worker.exited)));
    await Promise.all(services.splice(0).map((service) => service.close()));
  });
  afterAll(async () => {
    await client.end();
    await dropSchemas(url, schemas);
  });

  /** The service the platform's API process runs: it queues hooks, and leaves the work to the workers. */
  async function setUp(label: string, expireSeconds: number) {
    const names = { store: uniqueSchemaName(`${label}_store`), queue: uniqueSchemaName(`${label}_queue`), runs: uniqueSchemaName(`${label}_runs`) };
    schemas.push(names.store, names.queue, names.runs);
    await client.query(`CREATE SCHEMA "${names.runs}"`);
    await client.query(`CREATE TABLE "${names.runs}".runs (job_key text NOT NULL, worker text NOT NULL, attempt integer NOT NULL, state text NOT NULL)`);
    const service = await createMemoryService({
      store: createPostgresMemoryServiceStore({ connectionString: url, schema: names.store, maxConnections: 3 }),
      queue: createPgBossJobQueue({ connectionString: url, schema: names.queue, expireInSeconds: expireSeconds, retryDelaySeconds: 0 }),
    });
    services.push(service);
    const control = service.control(admin);
    await control.createBinding({ key: 'default', providerId: 'memory' });
    await control.setTarget({ targetType: 'company' }, 'default');
    const runs = `"${names.runs}".runs`;
    const channel = `${names.runs}_runs`;
    const start = (name: string, extra: Record<string, string> = {}) => {
      const worker = startWorkerProcess('./service-worker-process.ts', name, {
        MEMPLANE_TEST_POSTGRES_URL: url,
        MEMPLANE_TEST_STORE_SCHEMA: names.store,
        MEMPLANE_TEST_QUEUE_SCHEMA: names.queue,
        MEMPLANE_TEST_RUNS_TABLE: runs,
        MEMPLANE_TEST_CHANNEL: channel,
        MEMPLANE_TEST_EXPIRE_SECONDS: String(expireSeconds),
        ...extra,
      });
      workers.push(worker);
      return worker;
    };
    const waitFor = (sql: string, atLeast: number, description: string) =>
      waitForDatabaseCondition(url, channel, async (probe) => Number((await probe.query(sql)).rows[0].count) >= atLeast, { deadlineMs: 45_000, description });
    return { service, names, runs, start, waitFor };
  }

  it('shares queued hook deliveries between two worker processes, each delivered exactly once', async () => {
    const { service, names, runs, start, waitFor } = await setUp('share', 60);
    const first = start('worker-a', { MEMPLANE_TEST_MEET_WORKERS: '2' });
    const second = start('worker-b', { MEMPLANE_TEST_MEET_WORKERS: '2' });
    await Promise.all([first.ready, second.ready]);
    const queued = [];
    for (let index = 0; index < 24; index += 1) {
      queued.push(await service.hooks.enqueue('manual_capture', system, { agentId: 'planner', text: `Note ${index}: deploys need a second reviewer.` }));
    }
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE state = 'finished'`, queued.length, `${queued.length} deliveries to finish`);
    // Stopping the workers lets each record what it delivered before the store is read.
    expect([await first.stop(), await second.stop()]).toEqual([0, 0]);

    const hookIds = queued.map((hook) => hook.hookId).sort();
    const deliveries = await client.query<{ hook_id: string; receiver: string; status: string }>(
      `SELECT hook_id, receiver, status FROM "${names.store}".memory_hook_deliveries ORDER BY hook_id, receiver`,
    );
    const builtIn = deliveries.rows.filter((row) => row.receiver === 'binding:default');
    expect(builtIn.map((row) => row.hook_id)).toEqual(hookIds);
    expect(builtIn.every((row) => row.status === 'succeeded')).toBe(true);
    const bySubscriber = deliveries.rows.filter((row) => row.receiver !== 'binding:default');
    expect(bySubscriber.map((row) => row.hook_id)).toEqual(hookIds);
    expect(new Set(bySubscriber.map((row) => row.receiver))).toEqual(new Set(['worker-a', 'worker-b']));
    const captures = await client.query<{ hook_id: string }>(
      `SELECT hook_id FROM "${names.store}".memory_operations WHERE operation = 'capture' ORDER BY hook_id`,
    );
    expect(captures.rows.map((row) => row.hook_id)).toEqual(hookIds);
  });

  it('finishes on another worker a queued hook whose worker was killed mid-delivery', async () => {
    const { service, names, runs, start, waitFor } = await setUp('killed', 2);
    const doomed = start('worker-doomed');
    await doomed.ready;
    const queued = await service.hooks.enqueue('manual_capture', system, { agentId: 'planner', text: 'hang:worker-doomed Backups run at noon.' });
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE worker = 'worker-doomed'`, 1, 'the doomed worker to start the delivery');
    const survivor = start('worker-survivor');
    await survivor.ready;
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE state = 'finished'`, 1, 'the survivor to finish the delivery');
    expect(await survivor.stop()).toBe(0);

    const deliveries = await client.query<{ receiver: string; status: string }>(
      `SELECT receiver, status FROM "${names.store}".memory_hook_deliveries WHERE hook_id = $1 ORDER BY receiver`,
      [queued.hookId],
    );
    expect(deliveries.rows).toEqual([
      { receiver: 'binding:default', status: 'succeeded' },
      { receiver: 'worker-survivor', status: 'succeeded' },
    ]);
    const job = await client.query(`SELECT state, retry_count FROM "${names.queue}".job WHERE name = 'memplane-hook-delivery'`);
    expect(job.rows).toEqual([{ state: 'completed', retry_count: 1 }]);
    // Delivery is at least once: the dead worker's capture had reached its provider before it hung.
    const captures = await client.query(`SELECT count(*) AS count FROM "${names.store}".memory_operations WHERE hook_id = $1`, [queued.hookId]);
    expect(Number(captures.rows[0].count)).toBe(2);
  });
});

