import { randomUUID } from 'node:crypto';
import { MemoryConfigurationError, parseInput } from '@memplane/core';
import PgBoss from 'pg-boss';
import pg from 'pg';
import { z } from 'zod';
import type { EngineRunner, PipelineRun, PipelineRunOutcome, RunResolver } from './engine-runner';
import { checkpointStatements, deleteCheckpoint, deleteFinishedCheckpoints, insertCheckpoint, loadCheckpoint, revivedError, setCheckpointJob } from './pg-boss-run-checkpoints';
import { endLostRun, lostRunError } from './pg-boss-lost-runs';
import { lostStepQueueName, runStepJob, type StepJobContext, type StepJobData, stepJobOptions, stepQueueName } from './pg-boss-step-job';

/** Settings of {@link createPgBossRunner}. */
export interface PgBossRunnerSettings {
  /** The Postgres that holds the queue and the run checkpoints. */
  readonly connectionString: string;
  /** The schema of pg-boss's tables and the checkpoints. Default `memplane_engine_runner`. */
  readonly schema?: string | undefined;
  /** Whether this process takes step jobs (default true). A process that only submits runs sets false. */
  readonly work?: boolean | undefined;
  /**
   * How a worker rebuilds the steps and services of a run another process started, to resume it
   * after that process died. Engines created with this runner attach their own (`attach`); this one
   * is asked first, for pipelines run without an engine.
   */
  readonly resolveRun?: RunResolver | undefined;
  /** Seconds before a step a worker could not run (another engine's, or a step not registered there) is offered to the workers again. Default 5. */
  readonly handOverDelaySeconds?: number | undefined;
  /** Seconds a step job may stay active before it counts as lost (its worker died) and goes to another worker. Default 60. */
  readonly expireInSeconds?: number | undefined;
  /** Retries every step gets beyond its own, for lost workers. Default 2. */
  readonly crashRetries?: number | undefined;
  /** How often an idle worker looks for jobs, in seconds (at least 0.5). Default 1. */
  readonly pollingIntervalSeconds?: number | undefined;
  /** How often expired jobs are looked for, in seconds. Default 10. */
  readonly maintenanceIntervalSeconds?: number | undefined;
  /** Steps run at once by this process. Default 2. */
  readonly concurrency?: number | undefined;
  /**
   * Seconds the checkpoint of an ended run is kept when no caller took its outcome (the caller
   * died): it holds the pipeline state, the flow's input included, so it is deleted by the next
   * sweep after this. A caller that gets the outcome deletes it at once. Default 300.
   */
  readonly finishedRetentionSeconds?: number | undefined;
  /** Told about failures of background work (maintenance, polling). */
  readonly onError?: ((error: unknown) => void) | undefined;
}

const settingsSchema = z.strictObject({
  connectionString: z.string().min(1).max(4096),
  schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/).optional(),
  work: z.boolean().optional(),
  resolveRun: z.custom<RunResolver>((value) => typeof value === 'function', 'must be a function').optional(),
  handOverDelaySeconds: z.number().min(0).max(3600).optional(),
  expireInSeconds: z.number().int().min(1).max(86_400).optional(),
  crashRetries: z.number().int().min(0).max(100).optional(),
  pollingIntervalSeconds: z.number().min(0.5).max(3600).optional(),
  maintenanceIntervalSeconds: z.number().int().min(1).max(3600).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
  finishedRetentionSeconds: z.number().int().min(0).max(86_400).optional(),
  onError: z.custom<(error: unknown) => void>((value) => typeof value === 'function', 'must be a function').optional(),
});

/** The queued runner: an `EngineRunner` with a lifecycle. */
export interface PgBossRunner extends EngineRunner {
  /** Creates the tables and queue, and starts taking jobs when `work` is on. */
  start(): Promise<void>;
  /** Stops taking jobs (the step in flight finishes) and closes connections. */
  stop(): Promise<void>;
  /**
   * Deletes the checkpoints of runs that ended more than `finishedRetentionSeconds` ago; returns
   * how many. A working runner does this every maintenance interval; call it to sweep at once.
   */
  purgeFinished(): Promise<number>;
}

/**
 * A queued runner on pg-boss (§9): each step of a run is a durable job. After every step the
 * pipeline state is checkpointed together with the next step's job, so when a worker dies mid-step
 * its job expires and another worker resumes the run from the last checkpoint (the interrupted
 * step runs again: steps are at-least-once and the engine's writes are idempotent). A retryable
 * failure is retried by the queue up to the step's `retries`; `timeoutMs` aborts a step. The
 * caller of `run` waits for the outcome, as with the synchronous runner.
 */
export function createPgBossRunner(settings: PgBossRunnerSettings): PgBossRunner {
  const valid = parseInput(settingsSchema, settings, 'pg-boss runner settings', 'settings');
  const schema = valid.schema ?? 'memplane_engine_runner';
  const channel = `${schema}_runs`;
  const onError = valid.onError ?? (() => undefined);
  const pool = new pg.Pool({ connectionString: valid.connectionString, max: 4 });
  pool.on('error', onError);
  const boss = new PgBoss({ connectionString: valid.connectionString, schema, max: 4, supervise: true, schedule: false, maintenanceIntervalSeconds: valid.maintenanceIntervalSeconds ?? 10 });
  boss.on('error', onError);
  const waiters = new Map<string, () => void>();
  const resolvers: RunResolver[] = valid.resolveRun === undefined ? [] : [valid.resolveRun];
  let listener: pg.Client | undefined;
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let state: 'created' | 'started' | 'stopped' = 'created';
  const retention = valid.finishedRetentionSeconds ?? 300;
  const purgeFinished = () => deleteFinishedCheckpoints(pool, schema, retention);
  const context: StepJobContext = {
    pool,
    schema,
    boss,
    local: new Map(),
    resolvers,
    crashRetries: valid.crashRetries ?? 2,
    expireInSeconds: valid.expireInSeconds ?? 60,
    handOverDelaySeconds: valid.handOverDelaySeconds ?? 5,
    onError,
    notify: async (runId) => {
      await pool.query('SELECT pg_notify($1, $2)', [channel, runId]);
    },
  };

  /** Resolves when the run's checkpoint is no longer running, or its step job is gone for good. */
  async function waitForEnd(runId: string): Promise<void> {
    for (;;) {
      const checkpoint = await loadCheckpoint(pool, schema, runId);
      if (checkpoint === undefined || checkpoint.status !== 'running') return;
      if (checkpoint.jobId !== undefined) {
        const job = await boss.getJobById(stepQueueName, checkpoint.jobId);
        if (job !== null && (job.state === 'failed' || job.state === 'cancelled')) return;
      }
      // Woken by a worker's NOTIFY; the timer only covers a notification lost with a connection.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        waiters.set(runId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      waiters.delete(runId);
    }
  }

  return {
    name: 'pg-boss',
    attach(resolver) {
      if (typeof resolver !== 'function') throw new MemoryConfigurationError({ message: 'attach needs a run resolver function.' });
      resolvers.push(resolver);
      return () => {
        const index = resolvers.indexOf(resolver);
        if (index >= 0) resolvers.splice(index, 1);
      };
    },
    async start() {
      if (state !== 'created') throw new MemoryConfigurationError({ message: `The pg-boss runner cannot start: it is ${state}.` });
      state = 'started';
      for (const statement of checkpointStatements(schema)) await pool.query(statement);
      await boss.start();
      // The dead-letter queue first: step jobs name it.
      await boss.createQueue(lostStepQueueName, { name: lostStepQueueName, policy: 'standard' });
      await boss.createQueue(stepQueueName, { name: stepQueueName, policy: 'standard' });
      listener = new pg.Client({ connectionString: valid.connectionString });
      listener.on('error', onError);
      await listener.connect();
      listener.on('notification', (message) => waiters.get(message.payload ?? '')?.());
      await listener.query(`LISTEN "${channel}"`);
      if (valid.work !== false) {
        const options = { includeMetadata: true as const, batchSize: 1, pollingIntervalSeconds: valid.pollingIntervalSeconds ?? 1 };
        for (let worker = 0; worker < (valid.concurrency ?? 2); worker += 1) {
          await boss.work<StepJobData>(stepQueueName, options, async ([job]) => {
            if (job !== undefined) await runStepJob(context, job);
          });
        }
        await boss.work<StepJobData>(lostStepQueueName, options, async ([job]) => {
          if (job !== undefined) await endLostRun(context, job);
        });
        await purgeFinished();
        sweeper = setInterval(() => void purgeFinished().catch(onError), (valid.maintenanceIntervalSeconds ?? 10) * 1000);
        sweeper.unref();
      }
    },
    purgeFinished() {
      if (state !== 'started') return Promise.reject(new MemoryConfigurationError({ message: 'The pg-boss runner is not started; call start() first.' }));
      return purgeFinished();
    },
    async stop() {
      if (state !== 'started') return;
      state = 'stopped';
      clearInterval(sweeper);
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      await listener?.end();
      await pool.end();
    },
    async run<Services>(run: PipelineRun<Services>): Promise<PipelineRunOutcome> {
      if (state !== 'started') throw new MemoryConfigurationError({ message: 'The pg-boss runner is not started; call start() first.' });
      const first = run.steps[0];
      if (first === undefined) return { state: run.state, steps: [], llmUsage: [] };
      const runId = run.runId || randomUUID();
      context.local.set(runId, { steps: run.steps as never, services: run.services });
      try {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await insertCheckpoint(client, schema, { runId, flow: run.flow, pipelineRevision: run.pipelineRevision, stepIds: run.steps.map((step) => step.step.stepId), nextStep: 0, status: 'running', state: run.state, steps: [], llmUsage: [], meta: run.meta ?? {} });
          const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
          const jobId = await boss.send(stepQueueName, { runId, stepIndex: 0 } satisfies StepJobData, { ...stepJobOptions(context, first as never), db });
          if (jobId !== null) await setCheckpointJob(client, schema, runId, jobId);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
        await waitForEnd(runId);
        const checkpoint = await loadCheckpoint(pool, schema, runId);
        if (checkpoint === undefined) throw new MemoryConfigurationError({ message: `The checkpoint of run ${runId} disappeared.` });
        // The steps changed a copy of the state in the workers; the caller's object gets the result.
        for (const key of Object.keys(run.state)) delete run.state[key];
        Object.assign(run.state, checkpoint.state);
        const lost = checkpoint.status === 'running' ? lostRunError(runId, checkpoint.stepIds[checkpoint.nextStep]) : undefined;
        const error = checkpoint.error !== undefined ? revivedError(checkpoint.error) : lost;
        // The caller has the outcome: the state, the flow's input with it, is not kept. A lost run
        // keeps its checkpoint for the dead-letter worker that ends it; the sweep takes it later.
        if (lost === undefined) await deleteCheckpoint(pool, schema, runId);
        return { state: run.state, steps: checkpoint.steps, llmUsage: checkpoint.llmUsage, ...(error === undefined ? {} : { error }) };
      } finally {
        context.local.delete(runId);
      }
    },
  };
}
