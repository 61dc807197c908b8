import type { EngineFlow, RunLlmUsage, RunStepRecord } from '../store/engine-store-rows';
import type { PipelineState, PipelineStep, StepConfig } from '../pipeline/pipeline-step';

/** One step as the runner receives it: the step with its resolved config and profile. */
export interface ResolvedStep<Services = unknown> {
  readonly step: PipelineStep<Services>;
  readonly config: StepConfig;
  readonly profileName: string;
  /** Retries after the first failure of a retryable `MemoryError` (from config `retries`, default 0). */
  readonly retries: number;
  /** Milliseconds before the step is aborted (from config `timeoutMs`), or undefined for none. */
  readonly timeoutMs: number | undefined;
}

/** One execution of a pipeline. */
export interface PipelineRun<Services = unknown> {
  readonly runId: string;
  readonly flow: EngineFlow;
  readonly pipelineRevision: number;
  readonly steps: readonly ResolvedStep<Services>[];
  /** The flow inputs; steps add what they produce. */
  readonly state: PipelineState;
  readonly services: Services;
  readonly signal?: AbortSignal | undefined;
}

/** What a runner reports, for the run log. */
export interface PipelineRunOutcome {
  readonly state: PipelineState;
  readonly steps: readonly RunStepRecord[];
  readonly llmUsage: readonly RunLlmUsage[];
  /** Set when the run failed: the error a step threw (a `MemoryError`). */
  readonly error?: unknown;
}

/**
 * Runs pipelines (§9). The public API and semantics are the same whichever runner runs them:
 * the synchronous runner (default) runs steps in order in the caller's process; a queued runner
 * (pg-boss) adds durable step retries, timeouts and resumption after a crash. A runner never
 * throws for a failing step: it returns the outcome with `error`, so the run log is written.
 */
export interface EngineRunner {
  /** A short name for the run log, such as `sync` or `pg-boss`. */
  readonly name: string;
  run<Services>(run: PipelineRun<Services>): Promise<PipelineRunOutcome>;
}
