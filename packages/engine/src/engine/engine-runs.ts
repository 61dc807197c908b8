import { type JsonValue, MemoryApiCallError, MemoryError } from '@memplane/core';
import type { EvolveDiff } from '../flows/evolve-steps';
import type { MemorizeResult } from '../flows/memorize-persist';
import type { RetrieveResult } from '../flows/retrieve-recall';
import { profileNameFor } from '../profiles/llm-profiles';
import { effectiveConfig, flowContracts, type PipelineSet } from '../pipeline/pipeline-validation';
import type { PipelineState, StepRole } from '../pipeline/pipeline-step';
import type { EngineRunner, PipelineRunOutcome, ResolvedStep } from '../runner/engine-runner';
import type { EngineFlow, RunLogRow, ScopeRange } from '../store/engine-store-rows';
import type { EngineServices } from './engine-services';
import type { PipelineController } from './engine-pipelines';

/** What a flow run needs from the engine. */
export interface FlowRunContext {
  readonly runner: EngineRunner;
  readonly controller: PipelineController;
  readonly roleProfiles: Readonly<Partial<Record<StepRole, string>>>;
  /** This engine's identity (store and scope schema), carried by each run so no other engine resumes it. */
  readonly identity: string;
  /** Services for the given pipeline revision. */
  servicesFor(pipelineRevision: number): EngineServices;
}

/** One flow call. */
export interface FlowCall {
  readonly flow: EngineFlow;
  readonly state: PipelineState;
  readonly scopeRange: ScopeRange;
  /** A summary of the input without its content (the run log never holds memory text). */
  readonly inputSummary: string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * What a run carries for its run log (§10.2), so the worker that finishes it after its caller died
 * writes the same row the caller would have.
 */
export interface RunLogCarry {
  readonly scopeRange: ScopeRange;
  readonly inputSummary: string;
  readonly startedAt: string;
  /** The state key of the flow's output. */
  readonly outputKey: string;
}

/** The output summary of each flow's run log (counts, never memory text). */
const outputSummaries: { readonly [Flow in EngineFlow]: (output: never) => string } = {
  memorize: (result: MemorizeResult) => (result.duplicate ? `duplicate of ${result.resourceId}` : `${result.itemIds.length} items, ${result.reinforcedItemIds.length} reinforced`),
  retrieve: (result: RetrieveResult) => `${result.items.length} items, stopped at ${result.stoppedAt}${result.degraded.length > 0 ? `, degraded: ${result.degraded.join('; ')}` : ''}`,
  evolve: (diff: EvolveDiff) => `${diff.merged.length} merges, ${diff.recategorized.length} recategorized, intention ${diff.intention.beforeVersion ?? '-'} -> ${diff.intention.afterVersion ?? '-'}`,
};

function failureText(error: unknown): string {
  return MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}

/** A flow's steps with their effective config, profile, retries and timeout, for the runner. */
export function resolveFlowSteps(set: PipelineSet<EngineServices>, flow: EngineFlow, roleProfiles: FlowRunContext['roleProfiles']): ResolvedStep<EngineServices>[] {
  return set.flows[flow].map((step) => {
    const config = effectiveConfig(step as never, set.configs);
    return {
      step,
      config,
      profileName: profileNameFor(config, step.role, roleProfiles),
      retries: typeof config.retries === 'number' ? config.retries : 0,
      timeoutMs: typeof config.timeoutMs === 'number' ? config.timeoutMs : undefined,
    };
  });
}

/** The run log row of a finished run, and the error the run ends with (a missing output is one). */
export function runLogRow(run: { id: string; flow: EngineFlow; pipelineRevision: number }, carry: RunLogCarry, outcome: PipelineRunOutcome, finishedAt: string): { row: RunLogRow; output: unknown; error: unknown } {
  const output = outcome.state[carry.outputKey];
  let error = outcome.error;
  if (error === undefined && output === undefined) {
    error = new MemoryApiCallError({ message: `The ${run.flow} pipeline finished without producing "${carry.outputKey}".`, isRetryable: false });
  }
  const row: RunLogRow = {
    ...run,
    status: error === undefined ? 'ok' : 'failed',
    scopeRange: carry.scopeRange,
    inputSummary: carry.inputSummary,
    outputSummary: error === undefined ? outputSummaries[run.flow](output as never) : 'failed',
    steps: outcome.steps,
    llmUsage: outcome.llmUsage,
    failures: error === undefined ? [] : [failureText(error)],
    startedAt: carry.startedAt,
    finishedAt,
  };
  return { row, output, error };
}

/**
 * Runs a flow on the current pipeline revision with the engine's runner and writes its run log
 * (§10.2): input summary, scope range, step timings, model usage, failures and output summary.
 * The run carries the engine's identity and what the log needs, so a queued runner's worker can
 * finish it and write the same row when this caller is gone (the store ignores the second copy).
 * A step's error is rethrown after the log is written; an error that is not a `MemoryError`
 * (from a user step) is wrapped in one.
 */
export async function runFlow<Output>(context: FlowRunContext, call: FlowCall): Promise<{ output: Output; runId: string }> {
  const { revision, set } = context.controller.current();
  const services = context.servicesFor(revision);
  const runId = services.newId('run');
  const steps = resolveFlowSteps(set, call.flow, context.roleProfiles);
  const carry: RunLogCarry = { scopeRange: call.scopeRange, inputSummary: call.inputSummary, startedAt: services.now(), outputKey: flowContracts[call.flow].outputs[0] as string };
  const meta = { engine: context.identity, log: JSON.parse(JSON.stringify(carry)) as JsonValue };
  const outcome = await context.runner.run({ runId, flow: call.flow, pipelineRevision: revision, steps, state: call.state, services, signal: call.signal, meta });
  const { row, output, error } = runLogRow({ id: runId, flow: call.flow, pipelineRevision: revision }, carry, outcome, services.now());
  await services.store.appendRun(row);
  if (error !== undefined) {
    if (MemoryError.isInstance(error)) throw error;
    throw new MemoryApiCallError({ message: `A ${call.flow} step failed: ${failureText(error)}`, isRetryable: false, cause: error });
  }
  return { output: output as Output, runId };
}
