import { MemoryApiCallError, MemoryError } from '@memplane/core';
import { profileNameFor } from '../profiles/llm-profiles';
import { effectiveConfig, flowContracts } from '../pipeline/pipeline-validation';
import type { PipelineState, StepRole } from '../pipeline/pipeline-step';
import type { EngineRunner, ResolvedStep } from '../runner/engine-runner';
import type { EngineFlow, RunLogRow, ScopeRange } from '../store/engine-store-rows';
import type { EngineServices } from './engine-services';
import type { PipelineController } from './engine-pipelines';

/** What a flow run needs from the engine. */
export interface FlowRunContext {
  readonly runner: EngineRunner;
  readonly controller: PipelineController;
  readonly roleProfiles: Readonly<Partial<Record<StepRole, string>>>;
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

function failureText(error: unknown): string {
  return MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}

/**
 * Runs a flow on the current pipeline revision with the engine's runner and writes its run log
 * (§10.2): input summary, scope range, step timings, model usage, failures and output summary.
 * A step's error is rethrown after the log is written; an error that is not a `MemoryError`
 * (from a user step) is wrapped in one.
 */
export async function runFlow<Output>(context: FlowRunContext, call: FlowCall, summarize: (output: Output) => string): Promise<{ output: Output; runId: string }> {
  const { revision, set } = context.controller.current();
  const services = context.servicesFor(revision);
  const runId = services.newId('run');
  const steps: ResolvedStep<EngineServices>[] = set.flows[call.flow].map((step) => {
    const config = effectiveConfig(step as never, set.configs);
    return {
      step,
      config,
      profileName: profileNameFor(config, step.role, context.roleProfiles),
      retries: typeof config.retries === 'number' ? config.retries : 0,
      timeoutMs: typeof config.timeoutMs === 'number' ? config.timeoutMs : undefined,
    };
  });
  const startedAt = services.now();
  const outcome = await context.runner.run({ runId, flow: call.flow, pipelineRevision: revision, steps, state: call.state, services, signal: call.signal });
  const outputKey = flowContracts[call.flow].outputs[0] as string;
  const output = outcome.state[outputKey] as Output | undefined;
  let error = outcome.error;
  if (error === undefined && output === undefined) {
    error = new MemoryApiCallError({ message: `The ${call.flow} pipeline finished without producing "${outputKey}".`, isRetryable: false });
  }
  const run: RunLogRow = {
    id: runId,
    flow: call.flow,
    status: error === undefined ? 'ok' : 'failed',
    pipelineRevision: revision,
    scopeRange: call.scopeRange,
    inputSummary: call.inputSummary,
    outputSummary: error === undefined ? summarize(output as Output) : 'failed',
    steps: outcome.steps,
    llmUsage: outcome.llmUsage,
    failures: error === undefined ? [] : [failureText(error)],
    startedAt,
    finishedAt: services.now(),
  };
  await services.store.appendRun(run);
  if (error !== undefined) {
    if (MemoryError.isInstance(error)) throw error;
    throw new MemoryApiCallError({ message: `A ${call.flow} step failed: ${failureText(error)}`, isRetryable: false, cause: error });
  }
  return { output: output as Output, runId };
}
