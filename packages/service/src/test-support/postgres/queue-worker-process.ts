/**
 * A worker process for the queue tests: takes `hook_delivery` jobs from the pg-boss queue and
 * records each run in a table, notifying the test after every change. Payload fields:
 * `key` names the job; `hangIn` makes the named worker hang mid-job (the test kills it);
 * `meetWorkers` makes a worker's first job wait until that many workers have each started one,
 * so every worker provably takes part.
 */
import { createPgBossJobQueue } from '../../queue/pg-boss/pg-boss-job-queue';
import { createTestWorker } from './worker-process-support';

const test = createTestWorker('queue worker');
const { worker, runs } = test;
const queue = createPgBossJobQueue(test.queueSettings());

await queue.start();
await queue.work({
  async hook_delivery(job) {
    const { key, hangIn, meetWorkers } = job.payload as { key: string; hangIn?: string; meetWorkers?: number };
    await test.record(`INSERT INTO ${runs} (job_key, worker, attempt, state) VALUES ($1, $2, $3, 'started')`, [key, worker, job.attempt]);
    if (hangIn === worker) {
      // Never finishes: the test kills this process while the job is active.
      await new Promise<never>(() => undefined);
    }
    await test.meetOnce(meetWorkers, 'a job');
    await test.record(`UPDATE ${runs} SET state = 'finished' WHERE job_key = $1 AND worker = $2 AND attempt = $3`, [key, worker, job.attempt]);
  },
});
test.ready(() => queue.stop());
