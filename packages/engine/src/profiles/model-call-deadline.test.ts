import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryTimeoutError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hangingModel } from '../testing/multimodal-fixtures';
import { resolveProfiles } from './llm-profiles';
import { generateStructured } from './model-calls';

// A garbage collection on demand, as a busy CI worker would run one while a model call waits.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const pending = Symbol('pending');

describe('a model call under its profile timeout', () => {
  // Node can collect an AbortSignal.timeout that only an AbortSignal.any holds before it fires
  // (nodejs/node#57736): the call then never ends. Found as a CI run where the hanging-model
  // test waited for vitest's own timeout instead of the 25 ms profile timeout.
  it('ends with MemoryTimeoutError when the step signal is given and the heap is collected while it waits', { timeout: 10_000 }, async () => {
    const profile = resolveProfiles({ default: { model: hangingModel(), timeoutMs: 50, maxRetries: 0 } }).get('default')!;
    const step = new AbortController();
    const call = generateStructured(profile, { schema: z.object({ ok: z.boolean() }), system: 'test', prompt: 'hang', signal: step.signal, operation: 'test call' });
    let outcome: unknown = pending;
    void call.then(
      () => (outcome = 'resolved'),
      (error: unknown) => (outcome = error),
    );
    // Collect on every turn of the event loop until the call ends (the test timeout bounds a hang).
    while (outcome === pending) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    expect(MemoryTimeoutError.isInstance(outcome)).toBe(true);
    expect(step.signal.aborted).toBe(false);
  });

  it('ends at once when the step is cancelled first, under an hour-long profile timeout', { timeout: 10_000 }, async () => {
    const profile = resolveProfiles({ default: { model: hangingModel(), timeoutMs: 3_600_000, maxRetries: 0 } }).get('default')!;
    const step = new AbortController();
    const call = generateStructured(profile, { schema: z.object({ ok: z.boolean() }), system: 'test', prompt: 'hang', signal: step.signal, operation: 'test call' });
    step.abort(new Error('step cancelled'));
    await expect(call).rejects.toSatisfy((error: unknown) => MemoryTimeoutError.isInstance(error) || (error as Error).message.includes('cancelled'));
  });
});
