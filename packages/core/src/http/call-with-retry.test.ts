import { describe, expect, it } from 'vitest';
import { MemoryApiCallError, MemoryRateLimitedError } from '../errors/memory-api-call-error';
import { MemoryTimeoutError } from '../errors/memory-simple-errors';
import { callWithRetry, defaultRetryPolicy } from './call-with-retry';

/** A wait that records each delay and returns at once, honouring the signal like the real one. */
function createRecordingWait() {
  const delays: number[] = [];
  const wait = async (milliseconds: number, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    delays.push(milliseconds);
  };
  return { delays, wait };
}

/** A provider call that fails with the given errors in turn, then answers `value`. */
function createFlakyCall<Value>(errors: unknown[], value: Value) {
  const signals: AbortSignal[] = [];
  let attempts = 0;
  const run = async (signal: AbortSignal) => {
    signals.push(signal);
    const error = errors[attempts];
    attempts += 1;
    if (error !== undefined) throw error;
    return value;
  };
  return { run, signals, attempts: () => attempts };
}

const unavailable = (label = 'unavailable') => new MemoryApiCallError({ message: label, statusCode: 503 });

describe('callWithRetry', () => {
  it('returns the first answer without waiting', async () => {
    const { delays, wait } = createRecordingWait();
    const call = createFlakyCall([], 'answer');
    await expect(callWithRetry(call.run, { operation: 'search', wait })).resolves.toBe('answer');
    expect(call.attempts()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('retries retryable errors with exponential backoff and full jitter', async () => {
    const { delays, wait } = createRecordingWait();
    const call = createFlakyCall([unavailable(), unavailable()], 'answer');
    const result = await callWithRetry(call.run, { operation: 'search', wait, random: () => 0.5 });
    expect(result).toBe('answer');
    expect(call.attempts()).toBe(3);
    // Attempt n waits a random share of initialDelayMs * backoffFactor ** n.
    expect(delays).toEqual([250, 500]);
  });

  it('caps the backoff at maxDelayMs', async () => {
    const { delays, wait } = createRecordingWait();
    const call = createFlakyCall([unavailable(), unavailable(), unavailable(), unavailable()], 'answer');
    await callWithRetry(call.run, {
      operation: 'search',
      wait,
      random: () => 0.999,
      retry: { maxRetries: 4, initialDelayMs: 100, backoffFactor: 3, maxDelayMs: 500 },
    });
    expect(delays).toEqual([99, 299, 499, 499]);
  });

  it('waits the retryAfterMs the provider asked for instead of the backoff', async () => {
    const { delays, wait } = createRecordingWait();
    const limited = new MemoryRateLimitedError({ message: 'slow down', retryAfterMs: 1200 });
    const call = createFlakyCall([limited], 'answer');
    await expect(callWithRetry(call.run, { operation: 'search', wait, random: () => 0.5 })).resolves.toBe('answer');
    expect(delays).toEqual([1200]);
  });

  it('gives the error back at once when the provider asks for a wait over maxRetryAfterMs', async () => {
    const { delays, wait } = createRecordingWait();
    const limited = new MemoryRateLimitedError({ message: 'slow down', retryAfterMs: 60_000 });
    const call = createFlakyCall([limited], 'answer');
    await expect(callWithRetry(call.run, { operation: 'search', wait })).rejects.toBe(limited);
    expect(call.attempts()).toBe(1);
    expect(delays).toEqual([]);
    expect(defaultRetryPolicy.maxRetryAfterMs).toBe(30_000);
  });

  it('honours a raised maxRetryAfterMs', async () => {
    const { delays, wait } = createRecordingWait();
    const limited = new MemoryRateLimitedError({ message: 'slow down', retryAfterMs: 60_000 });
    const call = createFlakyCall([limited], 'answer');
    await callWithRetry(call.run, { operation: 'search', wait, retry: { maxRetryAfterMs: 90_000 } });
    expect(delays).toEqual([60_000]);
  });

  it('stops after maxRetries and throws the last error unchanged', async () => {
    const { delays, wait } = createRecordingWait();
    const errors = [unavailable('first'), unavailable('second'), unavailable('third'), unavailable('fourth')];
    const call = createFlakyCall(errors, 'never');
    await expect(callWithRetry(call.run, { operation: 'search', wait, retry: { maxRetries: 3 } })).rejects.toBe(errors[3]);
    expect(call.attempts()).toBe(4);
    expect(delays).toHaveLength(3);
  });

  it('retries twice by default', async () => {
    const { wait } = createRecordingWait();
    const errors = [unavailable('first'), unavailable('second'), unavailable('third'), unavailable('fourth')];
    const call = createFlakyCall(errors, 'never');
    await expect(callWithRetry(call.run, { operation: 'search', wait })).rejects.toBe(errors[2]);
    expect(call.attempts()).toBe(3);
  });

  it('throws a non-retryable error at once', async () => {
    const { delays, wait } = createRecordingWait();
    const rejected = new MemoryApiCallError({ message: 'bad request', statusCode: 400 });
    const call = createFlakyCall([rejected], 'never');
    await expect(callWithRetry(call.run, { operation: 'search', wait })).rejects.toBe(rejected);
    expect(call.attempts()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('throws an error that is not a memplane error at once', async () => {
    const { wait } = createRecordingWait();
    const bug = new TypeError('cannot read properties of undefined');
    const call = createFlakyCall([bug], 'never');
    await expect(callWithRetry(call.run, { operation: 'search', wait })).rejects.toBe(bug);
    expect(call.attempts()).toBe(1);
  });

  it('turns an attempt that never settles into a MemoryTimeoutError and aborts its signal', async () => {
    const signals: AbortSignal[] = [];
    const never = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<never>(() => undefined);
    };
    const attempt = callWithRetry(never, { operation: 'mem0 search', timeoutMs: 5, retry: { maxRetries: 0 } });
    await expect(attempt).rejects.toBeInstanceOf(MemoryTimeoutError);
    await expect(attempt).rejects.toMatchObject({ timeoutMs: 5, message: 'mem0 search did not finish within 5 ms.' });
    expect(signals[0]?.aborted).toBe(true);
    expect(MemoryTimeoutError.isInstance(signals[0]?.reason)).toBe(true);
  });

  it('retries a timed-out attempt, since timeouts are retryable', async () => {
    const { delays, wait } = createRecordingWait();
    let attempts = 0;
    const slowThenFast = (signal: AbortSignal) => {
      attempts += 1;
      if (attempts === 1) {
        return new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      }
      return Promise.resolve('answer');
    };
    await expect(callWithRetry(slowThenFast, { operation: 'search', timeoutMs: 5, wait, random: () => 0 })).resolves.toBe('answer');
    expect(attempts).toBe(2);
    expect(delays).toEqual([0]);
  });

  it('passes an abort of the caller to the attempt and does not retry after it', async () => {
    const { delays, wait } = createRecordingWait();
    const controller = new AbortController();
    let attempts = 0;
    const run = (signal: AbortSignal) => {
      attempts += 1;
      return new Promise<string>((_, reject) => {
        // A retryable error, as an SDK might report an aborted request; the caller's abort still wins.
        signal.addEventListener('abort', () => reject(unavailable('aborted')));
        controller.abort(new Error('caller gave up'));
      });
    };
    await expect(callWithRetry(run, { operation: 'search', signal: controller.signal, wait })).rejects.toThrow('caller gave up');
    expect(attempts).toBe(1);
    expect(delays).toEqual([]);
  });

  it('stops a pending retry when the caller aborts during the wait', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = createFlakyCall([unavailable()], 'answer');
    const wait = (_milliseconds: number, signal?: AbortSignal) => {
      controller.abort(reason);
      return new Promise<void>((_, reject) => {
        if (signal?.aborted) reject(signal.reason);
      });
    };
    await expect(callWithRetry(call.run, { operation: 'search', signal: controller.signal, wait })).rejects.toBe(reason);
    expect(call.attempts()).toBe(1);
  });

  it('does not start an attempt when the caller aborted before the call', async () => {
    const reason = new Error('caller gave up');
    const call = createFlakyCall([], 'answer');
    await expect(callWithRetry(call.run, { operation: 'search', signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(call.attempts()).toBe(0);
  });
});

describe('callWithRetry and an abort during an attempt', () => {
  it('ends the attempt at once even when run ignores its signal', async () => {
    const controller = new AbortController();
    const pending = callWithRetry(() => new Promise<never>(() => undefined), {
      operation: 'query',
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});
