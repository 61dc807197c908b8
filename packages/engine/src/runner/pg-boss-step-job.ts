import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { StepContext } from '../pipeline/pipeline-step';
import type { RunLlmUsage, RunStepRecord } from '../store/engine-store-rows';
import type { ResolvedRun, ResolvedStep, RunResolver } from './engine-runner';
import { advanceCheckpoint, handOverCheckpointJob, loadCheckpoint, type RunCheckpoint, setCheckpointJob, storedError } from './pg-boss-run-checkpoints';
import { attempt } from './sync-runner';

/** The pg-boss queue of step jobs. */
export const stepQueueName = 'memplane-engine-step';

/** Where pg-boss puts a step job that failed for good (see `pg-boss-lost-runs.ts`). */
export const lostStepQueueName = 'memplane-engine-step-lost';

/** What a step job carries: the run and the step to run. */
export interface StepJobData {
  readonly runId: string;
  readonly stepIndex: number;
}

/** What the job handler needs. */
export interface StepJobContext {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly boss: PgBoss;
  /** Runs started in this process, by id: their steps and services, no resolver needed. */
  readonly local: Map<string, { steps: readonly ResolvedStep<unknown>[]; services: unknown }>;
  /** Asked in order for a run this process did not start: the settings' one, then every attached engine's. */
  readonly resolvers: readonly RunResolver[];
  /** Retries granted beyond a step's own, so a run survives its worker dying. */
  readonly crashRetries: number;
  readonly expireInSeconds: number;
  /** Seconds before a step this worker could not run is offered again to any worker. */
  readonly handOverDelaySeconds: number;
  /** Tells waiting callers that a run moved. */
  notify(runId: string): Promise<void>;
  /** Told when this worker hands a step over because it cannot run it. */
  onError(error: unknown): void;
}

/** The pg-boss options of one step's job: its retries count both its own failures and lost workers. */
export function stepJobOptions(context: Pick<StepJobContext, 'crashRetries' | 'expireInSeconds'>, step: ResolvedStep<unknown>): PgBoss.SendOptions {
  const timeoutSeconds = step.timeoutMs === undefined ? 0 : Math.ceil(step.timeoutMs / 1000) + 1;
  return { retryLimit: step.retries + context.crashRetries, retryDelay: 0, expireInSeconds: Math.max(context.expireInSeconds, timeoutSeconds), deadLetter: lostStepQueueName };
}

const describe = (error: unknown) => (MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));

/**
 * Runs one step of a run from its checkpoint and commits the result with the next step's job in
 * one transaction, so a run is never left without a job. A stale job (its step already advanced
 * by another worker after an expiry, or handed over) does nothing. A run this process did not
 * start is rebuilt by the resolvers; when none can, the step is handed over to another worker. A
 * retryable failure with retries left throws, and pg-boss runs the job again; otherwise the run is
 * marked failed with the step's error.
 */
export async function runStepJob(context: StepJobContext, job: PgBoss.JobWithMetadata<StepJobData>): Promise<void> {
  const { runId, stepIndex } = job.data;
  const checkpoint = await loadCheckpoint(context.pool, context.schema, runId);
  if (checkpoint === undefined || checkpoint.status !== 'running' || checkpoint.nextStep !== stepIndex) return;
  // A job the run no longer waits on (handed over to a newer one) does nothing.
  if (checkpoint.jobId !== undefined && checkpoint.jobId !== job.id) return;
  const local = context.local.get(runId);
  const resolved: ResolvedRun | { refused: string } = local ?? (await resolveRun(context, checkpoint));
  if ('refused' in resolved) return handOver(context, job, checkpoint, resolved.refused);
  const step = resolved.steps[stepIndex]!;
  const state = checkpoint.state;
  const usage: RunLlmUsage[] = [];
  const notes: string[] = job.retryCount > 0 ? [`attempt ${job.retryCount + 1} (retried by the queue)`] : [];
  const controller = new AbortController();
  const stepContext: StepContext<unknown> = {
    flow: checkpoint.flow,
    runId,
    stepId: step.step.stepId,
    config: step.config,
    profileName: step.profileName,
    state,
    services: resolved.services,
    signal: controller.signal,
    recordUsage: (entry) => usage.push({ ...entry, stepId: step.step.stepId }),
    note: (detail) => notes.push(detail),
  };
  const startedAt = new Date();
  const started = performance.now();
  let failure: unknown;
  try {
    await attempt(step, stepContext, controller);
  } catch (error) {
    failure = error;
  }
  const retriesLeft = job.retryCount < step.retries;
  if (failure !== undefined && MemoryError.isInstance(failure) && failure.isRetryable && retriesLeft) throw failure;
  if (failure !== undefined) notes.push(describe(failure));
  const record: RunStepRecord = {
    stepId: step.step.stepId,
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - started,
    status: failure === undefined ? 'ok' : 'failed',
    detail: notes.length === 0 ? undefined : notes.join('; '),
  };
  const last = stepIndex + 1 >= checkpoint.stepIds.length;
  const status: RunCheckpoint['status'] = failure !== undefined ? 'failed' : last ? 'ok' : 'running';
  // The caller of a resolved run may be gone: this worker writes its run log before the run is
  // marked done, so a crash in between leaves the step to run again rather than a run without a log.
  if (local === undefined && status !== 'running') {
    await resolved.finish?.({ state, steps: [...checkpoint.steps, record], llmUsage: [...checkpoint.llmUsage, ...usage], ...(failure === undefined ? {} : { error: failure }) });
  }
  const client = await context.pool.connect();
  try {
    await client.query('BEGIN');
    const moved = await advanceCheckpoint(client, context.schema, runId, stepIndex, {
      nextStep: stepIndex + 1,
      status,
      state,
      steps: [...checkpoint.steps, record],
      llmUsage: [...checkpoint.llmUsage, ...usage],
      ...(failure === undefined ? {} : { error: storedError(failure) }),
    });
    if (moved && status === 'running') {
      const next = resolved.steps[stepIndex + 1]!;
      const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
      const jobId = await context.boss.send(stepQueueName, { runId, stepIndex: stepIndex + 1 } satisfies StepJobData, { ...stepJobOptions(context, next), db });
      if (jobId !== null) await setCheckpointJob(client, context.schema, runId, jobId);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await context.notify(runId);
}

/** Asks each resolver in turn; the first that rebuilds the run's exact steps wins. */
export async function resolveRun(context: StepJobContext, checkpoint: RunCheckpoint): Promise<ResolvedRun | { refused: string }> {
  const refusals: string[] = [];
  for (const resolver of context.resolvers) {
    const answer = await resolver({ runId: checkpoint.runId, flow: checkpoint.flow, pipelineRevision: checkpoint.pipelineRevision, meta: checkpoint.meta });
    if (answer === undefined) continue;
    if ('refused' in answer) {
      refusals.push(answer.refused);
      continue;
    }
    const rebuilt = answer.steps.map((entry) => entry.step.stepId);
    if (rebuilt.join('\u0000') === checkpoint.stepIds.join('\u0000')) return answer;
    refusals.push(`its engine rebuilt the steps (${rebuilt.join(', ')}) where the run has (${checkpoint.stepIds.join(', ')})`);
  }
  if (refusals.length > 0) return { refused: refusals.join('; ') };
  const engine = typeof checkpoint.meta.engine === 'string' ? ` (engine ${checkpoint.meta.engine})` : '';
  return { refused: context.resolvers.length === 0 ? 'no engine is attached to the runner in this process' : `no engine attached to the runner in this process is the one that started it${engine}` };
}

const intervalSeconds = (interval: PgBoss.JobWithMetadata['expireIn']): number => {
  const parts = interval as unknown as Partial<Record<'days' | 'hours' | 'minutes' | 'seconds' | 'milliseconds', number>>;
  return Math.max(1, Math.ceil((parts.days ?? 0) * 86_400 + (parts.hours ?? 0) * 3600 + (parts.minutes ?? 0) * 60 + (parts.seconds ?? 0) + (parts.milliseconds ?? 0) / 1000));
};

/**
 * Leaves a step this worker cannot run to the others: a copy of its job, due after a delay and with
 * the same retry budget, replaces it in the checkpoint together with the reason (one transaction).
 * The run keeps waiting for a worker that has its engine and steps; no retry is spent on refusals.
 */
async function handOver(context: StepJobContext, job: PgBoss.JobWithMetadata<StepJobData>, checkpoint: RunCheckpoint, reason: string): Promise<void> {
  const { runId, stepIndex } = job.data;
  const message = `This worker cannot resume run ${runId} at step ${checkpoint.stepIds[stepIndex]}, and leaves it to another worker: ${reason}.`;
  const client = await context.pool.connect();
  let moved = false;
  try {
    await client.query('BEGIN');
    const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
    const startAfter = new Date(Date.now() + context.handOverDelaySeconds * 1000);
    const jobId = await context.boss.send(stepQueueName, job.data, { retryLimit: job.retryLimit, retryDelay: 0, expireInSeconds: intervalSeconds(job.expireIn), startAfter, deadLetter: lostStepQueueName, db });
    moved = jobId !== null && (await handOverCheckpointJob(client, context.schema, runId, stepIndex, job.id, jobId, message));
    await client.query(moved ? 'COMMIT' : 'ROLLBACK');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  if (!moved) return;
  context.onError(new MemoryConfigurationError({ message }));
  await context.notify(runId);
}
