import { MemoryError } from '@memplane/core';
import type { PipelineStep } from '../../pipeline/pipeline-step';
import type { PipelineRun, ResolvedStep } from '../engine-runner';

/** The worker this process is, in the crash tests (the parent test is `parent`). */
const worker = () => process.env.MEMPLANE_WORKER_NAME ?? 'parent';

const step = (stepId: string, run: PipelineStep['run']): PipelineStep => ({ stepId, role: 'custom', requires: [], produces: [], capabilities: [], run });

/** A three-step pipeline that records which worker ran each step; `hang` hangs in the named worker. */
export function testSteps(options: { failuresBeforeSuccess?: number; failure?: 'retryable' | 'fatal'; timeoutMs?: number; retries?: number } = {}): ResolvedStep[] {
  let failures = 0;
  const steps: PipelineStep[] = [
    step('count', async ({ state }) => {
      state.visited = [...((state.visited as string[] | undefined) ?? []), `count@${worker()}`];
    }),
    step('middle', async ({ state, signal }) => {
      if (state.hangIn === worker()) {
        process.send?.({ type: 'in-step' });
        await new Promise<never>(() => undefined);
      }
      if (options.timeoutMs !== undefined) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      if (failures < (options.failuresBeforeSuccess ?? 0)) {
        failures += 1;
        throw new MemoryError('MEMORY_API_CALL', { message: `flaky model, failure ${failures}`, isRetryable: options.failure !== 'fatal' });
      }
      state.visited = [...(state.visited as string[]), `middle@${worker()}`];
    }),
    step('finish', async ({ state, recordUsage }) => {
      recordUsage({ profile: 'default', model: 'test-model', inputTokens: 3, outputTokens: undefined });
      state.visited = [...(state.visited as string[]), `finish@${worker()}`];
      state.lookup = new Map([['kept', new Float32Array([1, 2])]]);
    }),
  ];
  return steps.map((entry) => ({
    step: entry,
    config: {},
    profileName: 'default',
    retries: entry.stepId === 'middle' ? (options.retries ?? 0) : 0,
    timeoutMs: entry.stepId === 'middle' ? options.timeoutMs : undefined,
  }));
}

/** A run of the test pipeline. */
export function testRun(runId: string, steps: ResolvedStep[], state: Record<string, unknown> = {}): PipelineRun {
  return { runId, flow: 'memorize', pipelineRevision: 1, steps, state, services: undefined };
}
