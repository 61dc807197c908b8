import { MemoryError } from '@memplane/core';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { StepContext } from '../pipeline/pipeline-step';
import type { RunLlmUsage, RunStepRecord } from '../store/engine-store-rows';
import type { ResolvedStep } from './engine-runner';
import { advanceCheckpoint, loadCheckpoint, type RunCheckpoint, setCheckpointJob, storedError } from './pg-boss-run-checkpoints';
import { attempt } from './sync-runner';

/** The pg-boss queue of step jobs. */
export const stepQueueName = 'memplane-engine-step';

/** What a step job carries: the run and the step to run. */
export interface StepJobData {
  readonly runId: string;
  readonly stepIndex: number;
}

/** How a worker gets the steps and services of a run it did not start (another process started it). */
export type RunResolver = (run: { runId: string; flow: RunCheckpoint['flow']; pipelineRevision: number }) => Promise<{ steps: readonly ResolvedStep<unknown>[]; services: unknown } | undefined>;

/** What the job handler needs. */
export interface StepJobContext {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly boss: PgBoss;
  /** Runs started in this process, by id: their steps and services, no resolver needed. */
  readonly local: Map<string, { steps: readonly ResolvedStep<unknown>[]; services: unknown }>;
  readonly resolve: RunResolver | undefined;
  /** Retries granted beyond a step's own, so a run survives its worker dying. */
  readonly crashRetries: number;
  readonly expireInSeconds: number;
  /** Tells waiting callers that a run moved. */
  notify(runId: string): Promise<void>;
}

/** The pg-boss options of one step's job: its retries count both its own failures and lost workers. */
export function stepJobOptions(context: Pick<StepJobContext, 'crashRetries' | 'expireInSeconds'>, step: ResolvedStep<unknown>): PgBoss.SendOptions {
  const timeoutSeconds = step.timeoutMs === undefined ? 0 : Math.ceil(step.timeoutMs / 1000) + 1;
  return { retryLimit: step.retries + context.crashRetries, retryDelay: 0, expireInSeconds: Math.max(context.expireInSeconds, timeoutSeconds) };
}

const describe = (error: unknown) => (MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));

/**
 * Runs one step of a run from its checkpoint and commits the result with the next step's job in
 * one transaction, so a run is never left without a job. A stale job (its step already advanced
 * by another worker after an expiry) does nothing. A retryable failure with retries left throws,
 * and pg-boss runs the job again; otherwise the run is marked failed with the step's error.
 */
export async function runStepJob(context: StepJobContext, job: PgBoss.JobWithMetadata<StepJobData>): Promise<void> {
  const { runId, stepIndex } = job.data;
  const checkpoint = await loadCheckpoint(context.pool, context.schema, runId);
  if (checkpoint === undefined || checkpoint.status !== 'running' || checkpoint.nextStep !== stepIndex) return;
  const resolved = context.local.get(runId) ?? (await context.resolve?.({ runId, flow: checkpoint.flow, pipelineRevision: checkpoint.pipelineRevision }));
  const step = resolved?.steps[stepIndex];
  if (resolved === undefined || step === undefined || step.step.stepId !== checkpoint.stepIds[stepIndex]) {
    // This worker cannot run it (no resolver, or another pipeline): leave it to one that can.
    throw new MemoryError('MEMORY_CONFIGURATION', { message: `This worker cannot resume run ${runId} at step ${checkpoint.stepIds[stepIndex]}: it has no matching pipeline.` });
  }
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
