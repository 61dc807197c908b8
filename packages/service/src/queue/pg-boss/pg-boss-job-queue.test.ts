import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitForDatabaseCondition } from '../../test-support/postgres/database-condition';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../../test-support/postgres/postgres-test-database';
import { startWorkerProcess, type TestWorkerProcess } from '../../test-support/postgres/worker-processes';
import type { MemoryJobQueue, MemoryQueuedJob } from '../memory-job-queue';
import { createPgBossJobQueue } from './pg-boss-job-queue';

interface RunRow {
  job_key: string;
  worker: string;
  attempt: number;
  state: 'started' | 'finished';
}

describeWithPostgres('pg-boss job queue', (url) => {
  const schemas: string[] = [];
  const queues: MemoryJobQueue[] = [];
  const workers: TestWorkerProcess[] = [];
  let admin: pg.Client;

  const schemaFor = (label: string) => {
    const schema = uniqueSchemaName(label);
    schemas.push(schema);
    return schema;
  };
  const queueIn = (schema: string, overrides: { expireInSeconds?: number; retryLimit?: number } = {}) => {
    const queue = createPgBossJobQueue({ connectionString: url, schema, pollingIntervalSeconds: 0.5, retryDelaySeconds: 0, ...overrides });
    queues.push(queue);
    return queue;
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => (worker.child.exitCode === null ? worker.stop() : worker.exited)));
    await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  });
  afterAll(async () => {
    await admin.end();
    await dropSchemas(url, schemas);
  });

  describe('in one process', () => {
    it('runs every job once, and retries a job whose handler threw', async () => {
      const queue = queueIn(schemaFor('queue_once'));
      await queue.start();
      const seen: MemoryQueuedJob[] = [];
      let finish: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      await queue.work(
        {
          async hook_delivery(job) {
            seen.push(job);
            if (job.payload.key === 'flaky' && job.attempt === 0) throw new TypeError('first attempt fails');
            if (seen.filter((entry) => entry.payload.key !== 'flaky' || entry.attempt > 0).length === 4) finish();
          },
        },
        { concurrency: 2 },
      );
      const ids = [];
      for (const key of ['a', 'b', 'flaky', 'c']) ids.push(await queue.enqueue({ kind: 'hook_delivery', payload: { key } }));
      await finished;
      expect(ids.every((id) => typeof id === 'string')).toBe(true);
      const keys = seen.map((job) => `${String(job.payload.key)}#${job.attempt}`).sort();
      expect(keys).toEqual(['a#0', 'b#0', 'c#0', 'flaky#0', 'flaky#1']);
    });

    it('queues one extraction poll per key while one waits', async () => {
      const queue = queueIn(schemaFor('queue_singleton'));
      await queue.start();
      const first = await queue.enqueue({ kind: 'extraction_poll', payload: { bindingId: 'b1' }, singletonKey: 'acme:b1' });
      const duplicate = await queue.enqueue({ kind: 'extraction_poll', payload: { bindingId: 'b1' }, singletonKey: 'acme:b1' });
      const other = await queue.enqueue({ kind: 'extraction_poll', payload: { bindingId: 'b2' }, singletonKey: 'acme:b2' });
      expect(typeof first).toBe('string');
      expect(duplicate).toBeUndefined();
      expect(typeof other).toBe('string');
    });

    it('waits for the running job on stop', async () => {
      const queue = queueIn(schemaFor('queue_stop'));
      await queue.start();
      let release: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let started: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let done = false;
      await queue.work({
        async hook_delivery() {
          started();
          await released;
          done = true;
        },
      });
      await queue.enqueue({ kind: 'hook_delivery', payload: {} });
      await running;
      const stopping = queue.stop();
      release!();
      await stopping;
      expect(done).toBe(true);
    });

    it('refuses bad settings naming the field, and work before start', async () => {
      expect(() => createPgBossJobQueue({ connectionString: url, pollingIntervalSeconds: 0.1 })).toThrow(
        expect.objectContaining({ code: 'MEMORY_VALIDATION', field: 'settings.pollingIntervalSeconds' }) as Error,
      );
      expect(() => createPgBossJobQueue({})).toThrow(expect.objectContaining({ field: 'settings.connectionString' }) as Error);
      const queue = queueIn(schemaFor('queue_unstarted'));
      await expect(queue.enqueue({ kind: 'hook_delivery', payload: {} })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    });
  });

  describe('across worker processes', () => {
    const prepareRuns = async (label: string) => {
      const schema = schemaFor(label);
      await admin.query(`CREATE SCHEMA "${schema}"`);
      await admin.query(`CREATE TABLE "${schema}".runs (job_key text NOT NULL, worker text NOT NULL, attempt integer NOT NULL, state text NOT NULL)`);
      return { queueSchema: schemaFor(`${label}_queue`), runs: `"${schema}".runs`, channel: `${schema}_runs` };
    };
    const start = (name: string, setup: { queueSchema: string; runs: string; channel: string }, expireSeconds: number) => {
      const worker = startWorkerProcess('./queue-worker-process.ts', name, {
        MEMPLANE_TEST_POSTGRES_URL: url,
        MEMPLANE_TEST_QUEUE_SCHEMA: setup.queueSchema,
        MEMPLANE_TEST_RUNS_TABLE: setup.runs,
        MEMPLANE_TEST_CHANNEL: setup.channel,
        MEMPLANE_TEST_EXPIRE_SECONDS: String(expireSeconds),
      });
      workers.push(worker);
      return worker;
    };
    const runsOf = async (runs: string) =>
      (await admin.query<RunRow>(`SELECT job_key, worker, attempt, state FROM ${runs} ORDER BY job_key, attempt`)).rows;

    it('shares the jobs between two worker processes, each job done exactly once', async () => {
      const setup = await prepareRuns('two_workers');
      const queue = queueIn(setup.queueSchema, { expireInSeconds: 60 });
      await queue.start();
      const first = start('worker-a', setup, 60);
      const second = start('worker-b', setup, 60);
      await Promise.all([first.ready, second.ready]);
      const keys = Array.from({ length: 40 }, (_, index) => `job-${String(index).padStart(2, '0')}`);
      for (const key of keys) await queue.enqueue({ kind: 'hook_delivery', payload: { key, meetWorkers: 2 } });
      await waitForDatabaseCondition(
        url,
        setup.channel,
        async (client) => Number((await client.query(`SELECT count(*) AS done FROM ${setup.runs} WHERE state = 'finished'`)).rows[0].done) >= keys.length,
        { deadlineMs: 45_000, description: `${keys.length} jobs to finish` },
      );
      const rows = await runsOf(setup.runs);
      expect(rows.map((row) => row.job_key)).toEqual(keys);
      expect(rows.every((row) => row.state === 'finished' && row.attempt === 0)).toBe(true);
      expect(new Set(rows.map((row) => row.worker))).toEqual(new Set(['worker-a', 'worker-b']));
      expect([await first.stop(), await second.stop()]).toEqual([0, 0]);
    });

    it('finishes on another worker a job whose worker was killed mid-job', async () => {
      const setup = await prepareRuns('killed_worker');
      const queue = queueIn(setup.queueSchema, { expireInSeconds: 2 });
      await queue.start();
      const doomed = start('worker-doomed', setup, 2);
      await doomed.ready;
      await queue.enqueue({ kind: 'hook_delivery', payload: { key: 'the-job', hangIn: 'worker-doomed' } });
      await waitForDatabaseCondition(
        url,
        setup.channel,
        async (client) => (await client.query(`SELECT 1 FROM ${setup.runs} WHERE worker = 'worker-doomed'`)).rows.length > 0,
        { deadlineMs: 20_000, description: 'the doomed worker to start the job' },
      );
      const survivor = start('worker-survivor', setup, 2);
      await survivor.ready;
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBe('SIGKILL');
      await waitForDatabaseCondition(
        url,
        setup.channel,
        async (client) => (await client.query(`SELECT 1 FROM ${setup.runs} WHERE state = 'finished'`)).rows.length > 0,
        { deadlineMs: 30_000, description: 'the surviving worker to finish the job' },
      );
      expect(await runsOf(setup.runs)).toEqual([
        { job_key: 'the-job', worker: 'worker-doomed', attempt: 0, state: 'started' },
        { job_key: 'the-job', worker: 'worker-survivor', attempt: 1, state: 'finished' },
      ]);
      // A graceful stop lets the survivor mark its job done before the queue's own record is read.
      expect(await survivor.stop()).toBe(0);
      const jobs = await admin.query(`SELECT state, retry_count FROM "${setup.queueSchema}".job WHERE name = 'memplane-hook-delivery'`);
      expect(jobs.rows).toEqual([{ state: 'completed', retry_count: 1 }]);
    });
  });
});

describe('pg-boss job queue settings without a server', () => {
  it('names the bad field', () => {
    expect(() => createPgBossJobQueue({ connectionString: 'postgres://x', schema: 'Not Valid' })).toThrow(
      expect.objectContaining({ field: 'settings.schema' }) as Error,
    );
  });
});
