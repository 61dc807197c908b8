import type { JsonValue } from '@memplane/core';
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
  /**
   * What the run carries for a process that resumes it after its caller died: JSON the runner keeps
   * with the run and hands to the {@link RunResolver}. The engine puts its identity there (so no
   * other engine resolves the run) and what the run log needs.
   */
  readonly meta?: Readonly<Record<string, JsonValue>> | undefined;
}

/** What a runner reports, for the run log. */
export interface PipelineRunOutcome {
  readonly state: PipelineState;
  readonly steps: readonly RunStepRecord[];
  readonly llmUsage: readonly RunLlmUsage[];
  /** Set when the run failed: the error a step threw (a `MemoryError`). */
  readonly error?: unknown;
}

/** A run another process started, as a worker finds it in the queue. */
export interface RunToResolve {
  readonly runId: string;
  readonly flow: EngineFlow;
  readonly pipelineRevision: number;
  /** The run's `meta`, as its caller gave it (`{}` when it gave none). */
  readonly meta: Readonly<Record<string, JsonValue>>;
}

/**
 * The steps and services of a resolved run, and what to do once this worker finished it: the run's
 * caller may be gone, so whoever finishes a resolved run writes its run log.
 */
export interface ResolvedRun {
  readonly steps: readonly ResolvedStep<unknown>[];
  readonly services: unknown;
  /** Called with the outcome when this worker ran the run's last step (or its failing one). */
  readonly finish?: ((outcome: PipelineRunOutcome) => Promise<void>) | undefined;
}

/**
 * How a worker rebuilds a run another process started, to resume it. `undefined`: the run is not
 * this resolver's (another engine's run). `{ refused }`: it is, but this process cannot run it (a
 * step of its pipeline revision is not registered here); the reason says what is missing.
 */
export type RunResolver = (run: RunToResolve) => Promise<ResolvedRun | { readonly refused: string } | undefined>;

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
  /**
   * Registers a resolver for runs other processes started (a queued runner resumes them after their
   * caller died). Every engine created with this runner attaches its own; a worker asks each in
   * turn. Returns the detach function. Runners that never resume other processes' runs omit it.
   */
  attach?(resolver: RunResolver): () => void;
}
