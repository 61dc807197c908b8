import { provider as memoryProvider } from '@memplane/memory/provider';
import { createMemoryService, type MemoryService } from '../../service/create-memory-service';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPostgresMemoryServiceStore } from '../../store/postgres/postgres-memory-service-store';
import { waitForDatabaseCondition } from '../../test-support/postgres/database-condition';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../../test-support/postgres/postgres-test-database';
import { createSharedTable, sharedTableProvider } from '../../test-support/postgres/shared-table-provider';
import { startWorkerProcess, type TestWorkerProcess } from '../../test-support/postgres/worker-processes';
import { createPgBossJobQueue } from './pg-boss-job-queue';

const admin = { actor: { kind: 'company', companyId: 'acme', userId: 'admin' } } as const;
const system = { actor: { kind: 'system', component: 'heartbeat' }, companyId: 'acme' } as const;

describeWithPostgres('memory service workers on Postgres', (url) => {
  const schemas: string[] = [];
  const workers: TestWorkerProcess[] = [];
  const services: MemoryService[] = [];
  const providers: Array<{ close(): Promise<void> }> = [];
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => (worker.child.exitCode === null && worker.child.signalCode === null ? worker.stop() : worker.exited)));
    await Promise.all(services.splice(0).map((service) => service.close()));
    await Promise.all(providers.splice(0).map((provider) => provider.close()));
  });
  afterAll(async () => {
    await client.end();
    await dropSchemas(url, schemas);
  });

  /** The service the platform's API process runs: it queues hooks, and leaves the work to the workers. */
  async function setUp(label: string, expireSeconds: number, options: { hookTimeoutMs: number; providerId: 'memory' | 'shared-table' }) {
    const names = { store: uniqueSchemaName(`${label}_store`), queue: uniqueSchemaName(`${label}_queue`), runs: uniqueSchemaName(`${label}_runs`) };
    schemas.push(names.store, names.queue, names.runs);
    await client.query(`CREATE SCHEMA "${names.runs}"`);
    await client.query(`CREATE TABLE "${names.runs}".runs (job_key text NOT NULL, worker text NOT NULL, attempt integer NOT NULL, state text NOT NULL)`);
    const records = `"${names.runs}".records`;
    await createSharedTable(client, records);
    const sharedTable = sharedTableProvider(url, records, 'api');
    providers.push(sharedTable);
    const service = await createMemoryService({
      store: createPostgresMemoryServiceStore({ connectionString: url, schema: names.store, maxConnections: 3 }),
      queue: createPgBossJobQueue({ connectionString: url, schema: names.queue, expireInSeconds: expireSeconds, retryDelaySeconds: 0 }),
      hooks: { timeoutMs: options.hookTimeoutMs, maxAttempts: 1 },
      providers: [sharedTable.provider, memoryProvider],
    });
    services.push(service);
    const control = service.control(admin);
    await control.createBinding({ key: 'default', providerId: options.providerId });
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
        MEMPLANE_TEST_PROVIDER_TABLE: records,
        MEMPLANE_TEST_HOOK_TIMEOUT_MS: String(options.hookTimeoutMs),
        ...extra,
      });
      workers.push(worker);
      return worker;
    };
    const waitFor = (sql: string, atLeast: number, description: string) =>
      waitForDatabaseCondition(url, channel, async (probe) => Number((await probe.query(sql)).rows[0].count) >= atLeast, { deadlineMs: 45_000, description });
    return { service, names, runs, records, start, waitFor };
  }

  it('shares queued hook deliveries between two worker processes, each delivered exactly once', async () => {
    const { service, names, runs, start, waitFor } = await setUp('share', 60, { hookTimeoutMs: 10_000, providerId: 'memory' });
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

  it('finishes on another worker a queued hook whose worker was killed mid-delivery, without capturing it again', async () => {
    const { service, names, runs, start, waitFor } = await setUp('killed', 10, { hookTimeoutMs: 4000, providerId: 'memory' });
    const doomed = start('worker-doomed');
    await doomed.ready;
    const queued = await service.hooks.enqueue('manual_capture', system, { agentId: 'planner', text: 'hang:worker-doomed Backups run at noon.' });
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE worker = 'worker-doomed'`, 1, 'the doomed worker to start the delivery');
    // Killed while its subscriber hangs, after its capture reached the provider and was recorded.
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    const survivor = start('worker-survivor');
    await survivor.ready;
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE state = 'finished' AND worker = 'worker-survivor'`, 1, 'the survivor to finish the delivery');
    expect(await survivor.stop()).toBe(0);

    const deliveries = await client.query<{ receiver: string; status: string }>(
      `SELECT receiver, status FROM "${names.store}".memory_hook_deliveries WHERE hook_id = $1 ORDER BY receiver`,
      [queued.hookId],
    );
    expect(deliveries.rows).toEqual([
      { receiver: 'binding:default', status: 'skipped' },
      { receiver: 'worker-survivor', status: 'succeeded' },
    ]);
    const job = await client.query(`SELECT state, retry_count FROM "${names.queue}".job WHERE name = 'memplane-hook-delivery'`);
    expect(job.rows).toEqual([{ state: 'completed', retry_count: 1 }]);
    // The capture the dead worker wrote and recorded is not written again.
    const captures = await client.query(`SELECT count(*) AS count FROM "${names.store}".memory_operations WHERE hook_id = $1 AND operation = 'capture'`, [queued.hookId]);
    expect(Number(captures.rows[0].count)).toBe(1);
  });

  it('writes a capture once when its worker is killed after the provider wrote and before anything recorded it', async () => {
    const { service, names, runs, records, start, waitFor } = await setUp('written', 10, { hookTimeoutMs: 4000, providerId: 'shared-table' });
    const doomed = start('worker-doomed');
    await doomed.ready;
    const queued = await service.hooks.enqueue('manual_capture', system, { agentId: 'planner', text: 'hang-after-write:worker-doomed Backups run at noon.' });
    await waitFor(`SELECT count(*) AS count FROM ${records}`, 1, 'the doomed worker to write to the provider');
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    const survivor = start('worker-survivor');
    await survivor.ready;
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE state = 'finished' AND worker = 'worker-survivor'`, 1, 'the survivor to finish the delivery');
    expect(await survivor.stop()).toBe(0);

    const written = await client.query<{ worker: string; delivery_key: string }>(`SELECT worker, delivery_key FROM ${records}`);
    expect(written.rows).toEqual([{ worker: 'worker-doomed', delivery_key: expect.stringMatching(new RegExp(`^${queued.hookId}:bnd_`)) }]);
    const deliveries = await client.query<{ receiver: string; status: string }>(
      `SELECT receiver, status FROM "${names.store}".memory_hook_deliveries WHERE hook_id = $1 ORDER BY receiver`,
      [queued.hookId],
    );
    expect(deliveries.rows).toEqual([
      { receiver: 'binding:default', status: 'skipped' },
      { receiver: 'worker-survivor', status: 'succeeded' },
    ]);
    const job = await client.query(`SELECT state, retry_count FROM "${names.queue}".job WHERE name = 'memplane-hook-delivery'`);
    expect(job.rows).toEqual([{ state: 'completed', retry_count: 1 }]);
  });

  it('never hands a slow delivery to a second worker: the deadline ends it before the job expires', async () => {
    const { service, names, runs, records, start, waitFor } = await setUp('slow', 6, { hookTimeoutMs: 2000, providerId: 'shared-table' });
    const first = start('worker-a');
    const second = start('worker-b');
    await Promise.all([first.ready, second.ready]);
    // Whichever worker takes it, its provider call never returns.
    const queued = await service.hooks.enqueue('manual_capture', system, { agentId: 'planner', text: 'stall-provider Slow provider.' });
    await waitFor(`SELECT count(*) AS count FROM ${runs} WHERE state = 'finished'`, 1, 'the subscriber to run after the timed-out capture');
    expect([await first.stop(), await second.stop()]).toEqual([0, 0]);
    const job = await client.query(`SELECT state, retry_count FROM "${names.queue}".job WHERE name = 'memplane-hook-delivery'`);
    expect(job.rows).toEqual([{ state: 'completed', retry_count: 0 }]);
    expect((await client.query(`SELECT job_key FROM ${runs}`)).rows).toEqual([{ job_key: queued.hookId }]);
    expect(Number((await client.query(`SELECT count(*) AS count FROM ${records}`)).rows[0].count)).toBe(0);
    const capture = await client.query<{ status: string; error_code: string }>(
      `SELECT status, error_code FROM "${names.store}".memory_operations WHERE hook_id = $1 AND operation = 'capture'`,
      [queued.hookId],
    );
    expect(capture.rows).toEqual([{ status: 'failed', error_code: 'MEMORY_TIMEOUT' }]);
  });

  it('refuses a queue whose jobs expire before a delivery can end', async () => {
    const schema = uniqueSchemaName('expiry_store');
    schemas.push(schema);
    await expect(
      createMemoryService({
        store: createPostgresMemoryServiceStore({ connectionString: url, schema, maxConnections: 1 }),
        queue: createPgBossJobQueue({ connectionString: url, schema: uniqueSchemaName('expiry_queue'), expireInSeconds: 10 }),
      }),
    ).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION', message: expect.stringContaining('expiry') });
  });
});
