import { MemoryApiCallError, MemoryTimeoutError, MemoryValidationError } from '@memplane/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PipelineStep } from '../pipeline/pipeline-step';
import type { ResolvedStep } from './engine-runner';
import { createSyncRunner } from './sync-runner';

function resolved(step: Partial<PipelineStep> & Pick<PipelineStep, 'run'>, options: { retries?: number; timeoutMs?: number } = {}): ResolvedStep {
  return {
    step: { stepId: 'step', role: 'custom', requires: [], produces: [], capabilities: [], ...step },
    config: {},
    profileName: 'default',
    retries: options.retries ?? 0,
    timeoutMs: options.timeoutMs,
  };
}

const run = (steps: ResolvedStep[], signal?: AbortSignal) =>
  createSyncRunner().run({ runId: 'run_1', flow: 'memorize', pipelineRevision: 1, steps, state: {}, services: undefined, signal });

afterEach(() => {
  vi.useRealTimers();
});

describe('sync runner', () => {
  it('retries a retryable MemoryError up to the step retries, then succeeds', async () => {
    let attempts = 0;
    const outcome = await run([resolved({ run: async ({ state }) => { attempts += 1; if (attempts < 3) throw new MemoryApiCallError({ message: 'flaky', statusCode: 503 }); state.done = true; } }, { retries: 2 })]);
    expect(outcome.error).toBeUndefined();
    expect(outcome.state.done).toBe(true);
    expect(outcome.steps[0]).toMatchObject({ status: 'ok' });
    expect(outcome.steps[0]?.detail).toContain('attempt 2 failed');
  });

  it('does not retry a non-retryable error and stops the run there', async () => {
    let attempts = 0;
    const later = vi.fn(async () => undefined);
    const outcome = await run([
      resolved({ run: async () => { attempts += 1; throw new MemoryValidationError({ target: 'x', issues: [{ path: 'a', message: 'bad' }] }); } }, { retries: 5 }),
      resolved({ stepId: 'later', run: later }),
    ]);
    expect(attempts).toBe(1);
    expect(later).not.toHaveBeenCalled();
    expect(MemoryValidationError.isInstance(outcome.error)).toBe(true);
    expect(outcome.steps.map((step) => step.status)).toEqual(['failed']);
  });

  it('aborts a step that outlives its timeout with a retryable MemoryTimeoutError (fake timers)', async () => {
    vi.useFakeTimers();
    let aborted = false;
    const pending = run([resolved({ run: ({ signal }) => new Promise<void>(() => { signal.addEventListener('abort', () => { aborted = true; }); }) }, { timeoutMs: 5_000 })]);
    await vi.advanceTimersByTimeAsync(5_000);
    const outcome = await pending;
    expect(MemoryTimeoutError.isInstance(outcome.error)).toBe(true);
    expect(aborted).toBe(true);
  });

  it('stops before the next step when the caller aborts', async () => {
    const controller = new AbortController();
    const second = vi.fn(async () => undefined);
    const outcome = await run([resolved({ run: async () => controller.abort(new MemoryTimeoutError({ timeoutMs: 1, operation: 'caller' })) }), resolved({ stepId: 'second', run: second })], controller.signal);
    expect(second).not.toHaveBeenCalled();
    expect(MemoryTimeoutError.isInstance(outcome.error)).toBe(true);
  });
});
