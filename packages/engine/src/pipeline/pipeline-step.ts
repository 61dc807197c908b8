import type { JsonValue } from '@memplane/core';
import type { EngineFlow, RunLlmUsage } from '../store/engine-store-rows';

/**
 * What a step may need from the engine. `llm` and `embedding` need a profile with a model;
 * `media_input` a profile whose model reads files (`mediaInputs` not empty).
 */
export type StepCapability = 'llm' | 'embedding' | 'media_input' | 'vector_search' | 'db_write';

/** The governance role of a step; it picks the default LLM profile (§4.2) and groups run logs. */
export type StepRole =
  | 'ingest'
  | 'preprocess'
  | 'extract'
  | 'dedupe'
  | 'categorize'
  | 'intention'
  | 'persist'
  | 'route'
  | 'sufficiency'
  | 'recall'
  | 'verify'
  | 'build_context'
  | 'select'
  | 'refresh'
  | 'cluster'
  | 'diff'
  | 'custom';

/** A step's configuration: JSON, so every revision can be stored and compared. */
export type StepConfig = Readonly<Record<string, JsonValue>>;

/**
 * The state a pipeline threads through its steps: named values that steps declare they
 * `require` and `produce`. Values should be JSON-serialisable so a queued runner can persist the
 * state between steps and resume after a crash; the sync runner does not need it.
 */
export type PipelineState = Record<string, unknown>;

/** What a running step gets. */
export interface StepContext<Services = unknown> {
  readonly flow: EngineFlow;
  readonly runId: string;
  readonly stepId: string;
  /** The step's effective config: its defaults, then the user's `config(step_id, …)` overrides. */
  readonly config: StepConfig;
  /** The LLM profile the step resolves to (§4.2 precedence), by name. */
  readonly profileName: string;
  readonly state: PipelineState;
  /** Engine services (store, models, clock); typed by the engine for its built-in steps. */
  readonly services: Services;
  /** Aborted when the step's timeout expires or the caller gives up. */
  readonly signal: AbortSignal;
  /** Records model usage for the run log. */
  recordUsage(usage: Omit<RunLlmUsage, 'stepId'>): void;
  /** Adds a note to the step's run-log record, such as "no model: rule-based extraction". */
  note(detail: string): void;
}

/**
 * The step contract (§8.2). Built-in and user steps alike declare what they need and make, so a
 * pipeline change is validated before it is accepted.
 */
export interface PipelineStep<Services = unknown> {
  /** Stable identifier, for `config` and patches. Lowercase letters, digits and `_`. */
  readonly stepId: string;
  readonly role: StepRole;
  /** State keys the step reads; each must be produced by an earlier step or be a flow input. */
  readonly requires: readonly string[];
  /** State keys the step writes. */
  readonly produces: readonly string[];
  /** Capabilities the step cannot run without. */
  readonly capabilities: readonly StepCapability[];
  /** Capabilities the step uses when present and degrades without (the zero-config path). */
  readonly optionalCapabilities?: readonly StepCapability[] | undefined;
  /** Default config; user overrides are merged over it. */
  readonly defaultConfig?: StepConfig | undefined;
  /** Runs the step. Throws a `MemoryError` to fail it. */
  run(context: StepContext<Services>): Promise<void>;
}
