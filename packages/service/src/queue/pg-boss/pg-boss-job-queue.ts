import { MemoryConfigurationError, parseInput } from '@memplane/core';
import type { MemoryJobHandler, MemoryJobKind, MemoryJobQueue, MemoryJobRequest, MemoryQueuedJob } from '../memory-job-queue';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { z } from 'zod';
import { toStoreError } from '../../store/postgres/postgres-connection';
import { createIdleWait } from './idle-wait';

/** Settings of {@link createPgBossJobQueue}. Give `connectionString` or `pool`. */
export interface PgBossJobQueueSettings {
  /** A libpq connection string; the queue opens and owns its pool. */
  connectionString?: string;
  /** A pool you own; the queue sends its SQL through it and never ends it. */
  pool?: pg.Pool;
  /** The schema pg-boss keeps its tables in, created on `start()`. Default `memplane_queue`. */
  schema?: string;
  /** Connections of the pool the queue opens. Default 4. */
  maxConnections?: number;
  /**
   * How long a job may stay active before it counts as abandoned (its worker died or hung) and
   * is retried by another worker, in seconds. Longer than the slowest job. Default 300.
   */
  expireInSeconds?: number;
  /** Retries of a job whose handler threw or whose worker was lost. Default 5. */
  retryLimit?: number;
  /** Seconds before a retry. Default 5. */
  retryDelaySeconds?: number;
  /** How often an idle worker looks for jobs, in seconds (at least 0.5). Default 2. */
  pollingIntervalSeconds?: number;
  /** How often abandoned jobs are looked for, in seconds. Default 60. */
  maintenanceIntervalSeconds?: number;
  /** Told about failures of the queue's background work (maintenance, a failing fetch). */
  onError?: (error: unknown) => void;
}

const settingsSchema = z
  .strictObject({
    connectionString: z.string().min(1).max(4096).optional(),
    pool: z.custom<pg.Pool>((value) => typeof value === 'object' && value !== null && typeof (value as pg.Pool).query === 'function', 'must be a pg Pool').optional(),
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be 1 to 63 of a-z, 0-9 and "_", starting with a letter or "_"').optional(),
    maxConnections: z.number().int().min(1).max(1000).optional(),
    expireInSeconds: z.number().int().min(1).max(86_400).optional(),
    retryLimit: z.number().int().min(0).max(1000).optional(),
    retryDelaySeconds: z.number().int().min(0).max(86_400).optional(),
    pollingIntervalSeconds: z.number().min(0.5).max(3600).optional(),
    maintenanceIntervalSeconds: z.number().int().min(1).max(3600).optional(),
    onError: z.custom<(error: unknown) => void>((value) => typeof value === 'function', 'must be a function').optional(),
  })
  .refine((settings) => (settings.connectionString === undefined) !== (settings.pool === undefined), {
    message: 'give exactly one of connectionString and pool',
    path: ['connectionString'],
  });

/**
 * The pg-boss queue of each job kind. Extraction polls and retention passes are `stately`: one
 * waiting and one running per key at most (per binding, and one retention pass), whatever the
 * number of workers.
 */
const queues: Record<MemoryJobKind, { name: string; policy: 'standard' | 'stately' }> = {
  hook_delivery: { name: 'memplane-hook-delivery', policy: 'standard' },
  extraction_poll: { name: 'memplane-extraction-poll', policy: 'stately' },
  log_retention: { name: 'memplane-log-retention', policy: 'stately' },
};

/**
 * A durable job queue on Postgres through pg-boss (10.x, the last line that runs on Node 20):
 * jobs survive restarts, several worker processes on several machines share them (each job
 * is taken by one worker, `FOR UPDATE SKIP LOCKED`), a handler that throws is retried, and a
 * job whose worker died is retried by another once it has been active `expireInSeconds`.
 * Delivery is at least once: handlers must tolerate a second run of a job whose worker died
 * after doing the work and before marking it done (the service's handlers do, by hook id).
 */
export function createPgBossJobQueue(settings: PgBossJobQueueSettings): MemoryJobQueue {
  const valid = parseInput(settingsSchema, settings, 'pg-boss queue settings', 'settings');
  const onError = valid.onError ?? (() => undefined);
  const pollingMs = (valid.pollingIntervalSeconds ?? 2) * 1000;
  const expireInSeconds = valid.expireInSeconds ?? 300;
  const retryLimit = valid.retryLimit ?? 5;
  const retryDelaySeconds = valid.retryDelaySeconds ?? 5;
  const boss = new PgBoss({
    ...(valid.pool === undefined
      ? { connectionString: valid.connectionString, max: valid.maxConnections ?? 4 }
      : { db: { executeSql: (text: string, values: unknown[]) => valid.pool!.query(text, values) } }),
    schema: valid.schema ?? 'memplane_queue',
    application_name: 'memplane-queue',
    supervise: true,
    schedule: false,
    maintenanceIntervalSeconds: valid.maintenanceIntervalSeconds ?? 60,
    expireInSeconds,
    retryLimit,
    retryDelay: retryDelaySeconds,
  });
  // Without a listener an 'error' event would end the process.
  boss.on('error', onError);

  let state: 'created' | 'started' | 'stopping' | 'stopped' = 'created';
  const idle = createIdleWait();
  const loops: Array<Promise<void>> = [];

  const requireStarted = (what: string) => {
    if (state !== 'started') throw new MemoryConfigurationError({ message: `The pg-boss queue cannot ${what}: it is ${state === 'created' ? 'not started' : state}.` });
  };

  async function runLoop(kind: MemoryJobKind, handler: MemoryJobHandler): Promise<void> {
    const { name } = queues[kind];
    while (state === 'started') {
      let fetched: Array<PgBoss.JobWithMetadata<Record<string, unknown>>>;
      try {
        fetched = await boss.fetch<Record<string, unknown>>(name, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        onError(error);
        fetched = [];
      }
      const job = fetched[0];
      if (job === undefined) {
        await idle.wait(pollingMs);
        continue;
      }
      const queued: MemoryQueuedJob = { id: job.id, kind, payload: job.data ?? {}, attempt: job.retryCount };
      try {
        await handler(queued);
        await boss.complete(name, job.id);
      } catch (error) {
        try {
          await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) });
        } catch (failError) {
          // The job stays active and is retried once it expires.
          onError(failError);
        }
      }
    }
  }

  return {
    kind: 'pg-boss',
    jobExpiryMs: expireInSeconds * 1000,

    async start() {
      if (state === 'started') return;
      if (state !== 'created') throw new MemoryConfigurationError({ message: 'A stopped pg-boss queue cannot be started again; create a new one.' });
      try {
        await boss.start();
        // The queue row holds expiry and retries, whoever queues the job; the latest start applies its settings.
        for (const { name, policy } of Object.values(queues)) {
          const options = { name, policy, expireInSeconds, retryLimit, retryDelay: retryDelaySeconds };
          await boss.createQueue(name, options);
          await boss.updateQueue(name, options);
        }
      } catch (error) {
        throw toStoreError(error, 'start the job queue');
      }
      state = 'started';
    },

    async enqueue(request: MemoryJobRequest) {
      requireStarted('queue a job');
      const { name } = queues[request.kind];
      try {
        const id = await boss.send(name, request.payload, {
          ...(request.singletonKey === undefined ? {} : { singletonKey: request.singletonKey }),
          ...(request.delayMs === undefined || request.delayMs <= 0 ? {} : { startAfter: new Date(Date.now() + request.delayMs) }),
        });
        // A worker of this process may be idle; the others find the job at their next poll.
        idle.wakeAll();
        return id ?? undefined;
      } catch (error) {
        throw toStoreError(error, 'queue a job');
      }
    },

    async work(handlers, options = {}) {
      requireStarted('work');
      const concurrency = Math.max(1, Math.min(64, Math.floor(options.concurrency ?? 1)));
      for (const [kind, handler] of Object.entries(handlers) as Array<[MemoryJobKind, MemoryJobHandler | undefined]>) {
        if (handler === undefined) continue;
        for (let slot = 0; slot < concurrency; slot += 1) loops.push(runLoop(kind, handler));
      }
    },

    async stop() {
      if (state === 'stopped' || state === 'stopping') return;
      const wasStarted = state === 'started';
      state = 'stopping';
      idle.wakeAll();
      // Running jobs finish first; then pg-boss stops its maintenance and closes its own pool.
      await Promise.all(loops);
      if (wasStarted) await boss.stop({ graceful: true, wait: true, close: true, timeout: 30_000 });
      state = 'stopped';
    },
  };
}
