import { MemoryApiCallError, type MemoryError } from '@memplane/core';
import type PgBoss from 'pg-boss';
import type { RunStepRecord } from '../store/engine-store-rows';
import type { ResolvedRun } from './engine-runner';
import { advanceCheckpoint, loadCheckpoint, storedError } from './pg-boss-run-checkpoints';
import { lostStepQueueName, resolveRun, type StepJobContext, type StepJobData, stepQueueName } from './pg-boss-step-job';

// pg-boss puts a copy of a step job in the dead-letter queue when the job fails for good, which for
// the engine's steps means its workers died more often than `crashRetries` allows (a step's own
// failures end the run before that).

/** The error a run ends with when its step job was lost for good. */
export function lostRunError(runId: string, stepId: string | undefined): MemoryError {
  return new MemoryApiCallError({ message: `Run ${runId} stopped at step ${stepId}: its job failed and no retry remains (workers lost or unable to resume it).`, isRetryable: true });
}

/**
 * Ends a run whose step job was lost for good: the checkpoint is marked failed with a retryable
 * error, so a caller still waiting gets it, and a worker that can resolve the run writes its run
 * log (the caller may be gone too). A worker that cannot resolve it leaves the dead letter to
 * another one, after the hand-over delay. A run that moved on, or whose job is not the failed one,
 * is left alone.
 */
export async function endLostRun(context: StepJobContext, job: PgBoss.JobWithMetadata<StepJobData>): Promise<void> {
  const { runId, stepIndex } = job.data;
  const checkpoint = await loadCheckpoint(context.pool, context.schema, runId);
  if (checkpoint === undefined || checkpoint.status !== 'running' || checkpoint.nextStep !== stepIndex || checkpoint.jobId === undefined) return;
  const stepJob = await context.boss.getJobById(stepQueueName, checkpoint.jobId);
  if (stepJob === null || stepJob.state !== 'failed') return;
  const local = context.local.get(runId);
  const resolved: ResolvedRun | { refused: string } = local ?? (await resolveRun(context, checkpoint));
  if ('refused' in resolved) {
    await context.boss.send(lostStepQueueName, job.data, { retryLimit: job.retryLimit, startAfter: new Date(Date.now() + context.handOverDelaySeconds * 1000) });
    return;
  }
  const error = lostRunError(runId, checkpoint.stepIds[stepIndex]);
  const record: RunStepRecord = { stepId: checkpoint.stepIds[stepIndex] ?? 'unknown', startedAt: new Date().toISOString(), durationMs: 0, status: 'failed', detail: `${error.code}: ${error.message}` };
  if (local === undefined) await resolved.finish?.({ state: checkpoint.state, steps: [...checkpoint.steps, record], llmUsage: checkpoint.llmUsage, error });
  const client = await context.pool.connect();
  try {
    await advanceCheckpoint(client, context.schema, runId, stepIndex, { nextStep: stepIndex, status: 'failed', state: checkpoint.state, steps: [...checkpoint.steps, record], llmUsage: checkpoint.llmUsage, error: storedError(error) });
  } finally {
    client.release();
  }
  await context.notify(runId);
}
