import { deserialize, serialize } from 'node:v8';
import { type JsonValue, MemoryConfigurationError, MemoryError, type MemoryErrorCode } from '@memplane/core';
import type pg from 'pg';
import type { PipelineState } from '../pipeline/pipeline-step';
import type { EngineFlow, RunLlmUsage, RunStepRecord } from '../store/engine-store-rows';

/**
 * The checkpoints of the queued runner: one row per run with the pipeline state after the last
 * finished step, so any worker can resume a run whose worker died. The state is kept with
 * `v8.serialize` (maps, sets, typed arrays and dates survive; functions do not and are refused).
 */

/** One run's checkpoint. */
export interface RunCheckpoint {
  readonly runId: string;
  readonly flow: EngineFlow;
  readonly pipelineRevision: number;
  readonly stepIds: readonly string[];
  readonly nextStep: number;
  readonly status: 'running' | 'ok' | 'failed';
  readonly state: PipelineState;
  readonly steps: readonly RunStepRecord[];
  readonly llmUsage: readonly RunLlmUsage[];
  readonly error?: { code: MemoryErrorCode | undefined; message: string; isRetryable: boolean } | undefined;
  /** The pg-boss job of the step in flight. */
  readonly jobId?: string | undefined;
  /** The caller's `meta` (engine identity, what the run log needs). */
  readonly meta: Readonly<Record<string, JsonValue>>;
  /** Why the last worker that took the step could not run it, while no worker has. */
  readonly waiting?: string | undefined;
}

/** The checkpoint table's DDL in `schema`. */
export function checkpointStatements(schema: string): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    `CREATE TABLE IF NOT EXISTS "${schema}".engine_run_checkpoints (
      run_id TEXT PRIMARY KEY, flow TEXT NOT NULL, pipeline_revision INTEGER NOT NULL, step_ids JSONB NOT NULL,
      next_step INTEGER NOT NULL, status TEXT NOT NULL, state BYTEA NOT NULL, steps JSONB NOT NULL, llm_usage JSONB NOT NULL,
      error JSONB, job_id TEXT, updated_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    // Added after the first release: tables made before get them here.
    `ALTER TABLE "${schema}".engine_run_checkpoints ADD COLUMN IF NOT EXISTS meta JSONB NOT NULL DEFAULT '{}'::jsonb`,
    `ALTER TABLE "${schema}".engine_run_checkpoints ADD COLUMN IF NOT EXISTS waiting TEXT`,
  ];
}

/** The state as bytes; refuses state the queued runner cannot carry between processes. */
export function encodeState(state: PipelineState): Buffer {
  try {
    return serialize(state);
  } catch (cause) {
    throw new MemoryConfigurationError({ message: 'The queued runner keeps pipeline state between processes, and this state cannot be serialised (a function or a class instance?); use the synchronous runner for such steps.', cause });
  }
}

export function decodeState(bytes: Buffer): PipelineState {
  return deserialize(bytes) as PipelineState;
}

/** A stored error made into a `MemoryError` again, so the caller sees the code the step threw. */
export function revivedError(error: NonNullable<RunCheckpoint['error']>): MemoryError {
  return new MemoryError(error.code ?? 'MEMORY_API_CALL', { message: error.message, isRetryable: error.isRetryable });
}

/** What a thrown value keeps in a checkpoint. */
export function storedError(error: unknown): NonNullable<RunCheckpoint['error']> {
  if (MemoryError.isInstance(error)) return { code: error.code, message: error.message, isRetryable: error.isRetryable };
  return { code: undefined, message: error instanceof Error ? error.message : String(error), isRetryable: false };
}

interface CheckpointRecord {
  run_id: string;
  flow: EngineFlow;
  pipeline_revision: number;
  step_ids: string[];
  next_step: number;
  status: RunCheckpoint['status'];
  state: Buffer;
  steps: RunStepRecord[];
  llm_usage: RunLlmUsage[];
  error: RunCheckpoint['error'] | null;
  job_id: string | null;
  meta: Record<string, JsonValue>;
  waiting: string | null;
}

/** Reads one checkpoint, or undefined. */
export async function loadCheckpoint(client: pg.Pool | pg.PoolClient, schema: string, runId: string): Promise<RunCheckpoint | undefined> {
  const { rows } = await client.query<CheckpointRecord>(`SELECT * FROM "${schema}".engine_run_checkpoints WHERE run_id = $1`, [runId]);
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    runId: row.run_id,
    flow: row.flow,
    pipelineRevision: row.pipeline_revision,
    stepIds: row.step_ids,
    nextStep: row.next_step,
    status: row.status,
    state: decodeState(row.state),
    steps: row.steps,
    llmUsage: row.llm_usage,
    error: row.error ?? undefined,
    jobId: row.job_id ?? undefined,
    meta: row.meta,
    waiting: row.waiting ?? undefined,
  };
}

/** Writes a new run's checkpoint. */
export async function insertCheckpoint(client: pg.PoolClient, schema: string, checkpoint: RunCheckpoint): Promise<void> {
  await client.query(
    `INSERT INTO "${schema}".engine_run_checkpoints (run_id, flow, pipeline_revision, step_ids, next_step, status, state, steps, llm_usage, error, job_id, meta)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      checkpoint.runId,
      checkpoint.flow,
      checkpoint.pipelineRevision,
      JSON.stringify(checkpoint.stepIds),
      checkpoint.nextStep,
      checkpoint.status,
      encodeState(checkpoint.state),
      JSON.stringify(checkpoint.steps),
      JSON.stringify(checkpoint.llmUsage),
      checkpoint.error === undefined ? null : JSON.stringify(checkpoint.error),
      checkpoint.jobId ?? null,
      JSON.stringify(checkpoint.meta),
    ],
  );
}

/**
 * Advances a checkpoint from step `fromStep`, only if it is still there (a second worker that ran
 * the same step after an expiry finds it moved on and changes nothing). Returns whether it moved.
 */
export async function advanceCheckpoint(
  client: pg.PoolClient,
  schema: string,
  runId: string,
  fromStep: number,
  next: { nextStep: number; status: RunCheckpoint['status']; state: PipelineState; steps: readonly RunStepRecord[]; llmUsage: readonly RunLlmUsage[]; error?: RunCheckpoint['error'] },
): Promise<boolean> {
  const result = await client.query(
    `UPDATE "${schema}".engine_run_checkpoints SET next_step = $3, status = $4, state = $5, steps = $6, llm_usage = $7, error = $8, waiting = NULL, updated_at = now()
     WHERE run_id = $1 AND next_step = $2 AND status = 'running'`,
    [runId, fromStep, next.nextStep, next.status, encodeState(next.state), JSON.stringify(next.steps), JSON.stringify(next.llmUsage), next.error === undefined ? null : JSON.stringify(next.error)],
  );
  return (result.rowCount ?? 0) === 1;
}

/** Records the pg-boss job of the step in flight. */
export async function setCheckpointJob(client: pg.PoolClient, schema: string, runId: string, jobId: string): Promise<void> {
  await client.query(`UPDATE "${schema}".engine_run_checkpoints SET job_id = $2 WHERE run_id = $1`, [runId, jobId]);
}

/**
 * Hands the step in flight to a new job (`jobId`), with why the worker that took it could not run
 * it, only if the checkpoint still waits on `fromJob` at that step. Returns whether it did.
 */
export async function handOverCheckpointJob(client: pg.PoolClient, schema: string, runId: string, step: number, fromJob: string, jobId: string, waiting: string): Promise<boolean> {
  const result = await client.query(
    `UPDATE "${schema}".engine_run_checkpoints SET job_id = $4, waiting = $5, updated_at = now()
     WHERE run_id = $1 AND next_step = $2 AND status = 'running' AND job_id = $3`,
    [runId, step, fromJob, jobId, waiting],
  );
  return (result.rowCount ?? 0) === 1;
}

/** Deletes one run's checkpoint once its caller has the outcome: the state (the flow's input included) is not kept past the run. */
export async function deleteCheckpoint(client: pg.Pool | pg.PoolClient, schema: string, runId: string): Promise<void> {
  await client.query(`DELETE FROM "${schema}".engine_run_checkpoints WHERE run_id = $1 AND status <> 'running'`, [runId]);
}

/** Deletes the checkpoints of runs that ended more than `olderThanSeconds` ago (their caller died, or never read them). Returns how many. */
export async function deleteFinishedCheckpoints(client: pg.Pool | pg.PoolClient, schema: string, olderThanSeconds: number): Promise<number> {
  const result = await client.query(
    `DELETE FROM "${schema}".engine_run_checkpoints WHERE status <> 'running' AND updated_at <= now() - make_interval(secs => $1)`,
    [olderThanSeconds],
  );
  return result.rowCount ?? 0;
}
