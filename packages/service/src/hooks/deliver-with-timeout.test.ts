import { MemoryRateLimitedError, MemoryTimeoutError } from '@memplane/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliverWithTimeout, isImmediatelyRetryable, isSubscriberRetryable } from './deliver-with-timeout';

const options = { timeoutMs: 100, maxAttempts: 3, receiver: 'test' };

describe('deliverWithTimeout', () => {
  afterEach(() => vi.useRealTimers());

  it('returns the value of the first attempt that succeeds', async () => {
    let calls = 0;
    const outcome = await deliverWithTimeout(
      () => {
        calls += 1;
        if (calls < 2) throw new TypeError('once');
        return 'done';
      },
      { ...options, shouldRetry: isSubscriberRetryable },
    );
    expect(outcome).toMatchObject({ status: 'succeeded', attempts: 2, value: 'done' });
  });

  it('stops at a timeout without retrying, and aborts the signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let signal: AbortSignal | undefined;
    const pending = deliverWithTimeout(
      (given) => {
        signal = given;
        return new Promise<never>(() => undefined);
      },
      { ...options, shouldRetry: isSubscriberRetryable },
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toMatchObject({ status: 'timed_out', attempts: 1, error: 'hook delivery to test did not finish within 100 ms.' });
    expect(signal?.aborted).toBe(true);
  });

  it('retries built-in deliveries only for errors that may succeed right away', () => {
    expect(isImmediatelyRetryable(new MemoryRateLimitedError({ message: 'later', retryAfterMs: 0 }))).toBe(true);
    expect(isImmediatelyRetryable(new MemoryRateLimitedError({ message: 'later', retryAfterMs: 5000 }))).toBe(false);
    expect(isImmediatelyRetryable(new MemoryTimeoutError({ timeoutMs: 1, operation: 'x' }))).toBe(false);
    expect(isImmediatelyRetryable(new TypeError('bug'))).toBe(false);
  });
});
