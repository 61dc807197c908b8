import { MemoryError, MemoryTimeoutError } from '@memplane/core';
import type { RunLlmUsage, RunStepRecord } from '../store/engine-store-rows';
import type { StepContext } from '../pipeline/pipeline-step';
import type { EngineRunner, PipelineRun, PipelineRunOutcome, ResolvedStep } from './engine-runner';

/** Runs one attempt of a step, aborting it when its timeout expires (shared with the queued runner). */
export async function attempt<Services>(resolved: ResolvedStep<Services>, context: StepContext<Services>, controller: AbortController): Promise<void> {
  if (resolved.timeoutMs === undefined) return resolved.step.run(context);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new MemoryTimeoutError({ timeoutMs: resolved.timeoutMs as number, operation: `step ${resolved.step.stepId}` });
      controller.abort(error);
      reject(error);
    }, resolved.timeoutMs);
  });
  try {
    await Promise.race([resolved.step.run(context), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (MemoryError.isInstance(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The default runner: steps run one after another in the caller's process. A step whose error
 * is a retryable `MemoryError` runs again, up to its `retries`; any other error fails the run at once.
 */
export function createSyncRunner(): EngineRunner {
  return {
    name: 'sync',
    async run<Services>(run: PipelineRun<Services>): Promise<PipelineRunOutcome> {
      const steps: RunStepRecord[] = [];
      const llmUsage: RunLlmUsage[] = [];
      for (const resolved of run.steps) {
        const startedAt = new Date();
        const started = performance.now();
        const notes: string[] = [];
        let failure: unknown;
        for (let attemptNumber = 0; attemptNumber <= resolved.retries; attemptNumber += 1) {
          const controller = new AbortController();
          const onAbort = () => controller.abort(run.signal?.reason);
          run.signal?.addEventListener('abort', onAbort, { once: true });
          const context: StepContext<Services> = {
            flow: run.flow,
            runId: run.runId,
            stepId: resolved.step.stepId,
            config: resolved.config,
            profileName: resolved.profileName,
            state: run.state,
            services: run.services,
            signal: controller.signal,
            recordUsage: (usage) => llmUsage.push({ ...usage, stepId: resolved.step.stepId }),
            note: (detail) => notes.push(detail),
          };
          try {
            if (run.signal?.aborted === true) throw run.signal.reason;
            await attempt(resolved, context, controller);
            failure = undefined;
            break;
          } catch (error) {
            failure = error;
            if (!(MemoryError.isInstance(error) && error.isRetryable)) break;
            notes.push(`attempt ${attemptNumber + 1} failed: ${describe(error)}`);
          } finally {
            run.signal?.removeEventListener('abort', onAbort);
          }
        }
        const durationMs = performance.now() - started;
        if (failure !== undefined) notes.push(describe(failure));
        steps.push({
          stepId: resolved.step.stepId,
          startedAt: startedAt.toISOString(),
          durationMs,
          status: failure === undefined ? 'ok' : 'failed',
          detail: notes.length === 0 ? undefined : notes.join('; '),
        });
        if (failure !== undefined) return { state: run.state, steps, llmUsage, error: failure };
      }
      return { state: run.state, steps, llmUsage };
    },
  };
}
