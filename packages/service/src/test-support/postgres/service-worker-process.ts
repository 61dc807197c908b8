/**
 * A memory service worker process for the tests: the service on the Postgres store, taking
 * queued hook deliveries from the pg-boss queue. It subscribes to `manual_capture` under its
 * own name, so every delivery it makes is recorded with it, and records each delivery it
 * starts and finishes in a table, notifying the test after every change. A note whose text
 * contains `hang:<worker>` makes that worker hang mid-delivery (the test kills it); with
 * MEMPLANE_TEST_MEET_WORKERS set, a worker's first delivery waits until that many workers
 * have each started one, so every worker provably takes part. It knows the `shared-table`
 * provider, whose records every worker shares (see shared-table-provider.ts).
 */
import { provider as memoryProvider } from '@memplane/memory/provider';
import { createMemoryService } from '../../service/create-memory-service';
import { createPgBossJobQueue } from '../../queue/pg-boss/pg-boss-job-queue';
import { createPostgresMemoryServiceStore } from '../../store/postgres/postgres-memory-service-store';
import { sharedTableProvider } from './shared-table-provider';
import { createTestWorker } from './worker-process-support';

const test = createTestWorker('service worker');
const { url, worker, runs } = test;
const meetWorkers = process.env.MEMPLANE_TEST_MEET_WORKERS === undefined ? undefined : Number(process.env.MEMPLANE_TEST_MEET_WORKERS);

const sharedTable = sharedTableProvider(url, test.read('MEMPLANE_TEST_PROVIDER_TABLE'), worker, () => test.record('SELECT 1', []));
const service = await createMemoryService({
  store: createPostgresMemoryServiceStore({ connectionString: url, schema: test.read('MEMPLANE_TEST_STORE_SCHEMA'), maxConnections: 4 }),
  queue: createPgBossJobQueue(test.queueSettings()),
  // Every delivery ends within its timeout, which the queue's expiry must exceed (the service checks).
  hooks: { timeoutMs: Number(test.read('MEMPLANE_TEST_HOOK_TIMEOUT_MS')), maxAttempts: 1 },
  operationLog: { batchSize: 1 },
  providers: [sharedTable.provider, memoryProvider],
});

service.hooks.subscribe('manual_capture', {
  name: worker,
  async deliver(delivery) {
    const hookId = delivery.hook.hookId;
    await test.record(`INSERT INTO ${runs} (job_key, worker, attempt, state) VALUES ($1, $2, 0, 'started')`, [hookId, worker]);
    if (delivery.payload?.text?.includes(`hang:${worker}`) === true) {
      // Never finishes: the test kills this process while the delivery is under way.
      await new Promise<never>(() => undefined);
    }
    await test.meetOnce(meetWorkers, 'a delivery');
    await test.record(`UPDATE ${runs} SET state = 'finished' WHERE job_key = $1 AND worker = $2`, [hookId, worker]);
  },
});
await service.startWorker({ concurrency: 2 });
test.ready(async () => {
  await service.close();
  await sharedTable.close();
});
