import { MemoryError } from '../errors/memory-error';
import { MemoryTimeoutError } from '../errors/memory-simple-errors';

/** How a provider call is retried. */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 2. */
  maxRetries: number;
  /** The first backoff delay in milliseconds. Default 500. */
  initialDelayMs: number;
  /** The longest backoff delay in milliseconds. Default 8000. */
  maxDelayMs: number;
  /** The multiplier between attempts. Default 2. */
  backoffFactor: number;
  /**
   * The longest Retry-After the policy honours, in milliseconds. A provider that asks for a
   * longer wait gets the error back at once, with `retryAfterMs` set. Default 30000.
   */
  maxRetryAfterMs: number;
}

/** The default retry policy: 2 retries, exponential backoff from 500 ms with full jitter. */
export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  backoffFactor: 2,
  maxRetryAfterMs: 30_000,
};

/** Options of {@link callWithRetry}. */
export interface CallWithRetryOptions {
  /** The operation name, for timeout messages. */
  operation: string;
  /** Overrides of the default retry policy. */
  retry?: Partial<RetryPolicy>;
  /** The timeout of each attempt in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** Aborts the call and any pending retry; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Waits between attempts. Tests pass a fake; the default uses a timer. */
  wait?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  /** The random source of the jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
}

function defaultWait(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    // The listener goes when the timer fires, so long-lived signals do not collect listeners.
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One attempt: its own AbortController, ended by the timeout or by the outer signal. One
 * promise settles on whichever comes first (no `Promise.race` and no second promise), since
 * this wraps every provider call.
 */
function attemptWithTimeout<Value>(
  run: (signal: AbortSignal) => Promise<Value>,
  timeoutMs: number,
  operation: string,
  outer?: AbortSignal,
): Promise<Value> {
  const controller = new AbortController();
  return new Promise<Value>((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', abortFromOuter);
    };
    // The outer abort ends the attempt at once, even when `run` ignores its signal.
    const abortFromOuter = () => {
      if (settled) return;
      settle();
      controller.abort(outer?.reason);
      reject(outer?.reason);
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settle();
      const error = new MemoryTimeoutError({ timeoutMs, operation });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    outer?.addEventListener('abort', abortFromOuter, { once: true });
    let running: Promise<Value>;
    try {
      running = Promise.resolve(run(controller.signal));
    } catch (error) {
      settle();
      reject(error);
      return;
    }
    running.then(
      (value) => {
        if (settled) return;
        settle();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settle();
        reject(error);
      },
    );
  });
}

/**
 * Calls a provider with a timeout on every attempt and a bounded retry policy:
 * exponential backoff with full jitter, honouring `retryAfterMs` of retryable errors.
 * Only errors with `isRetryable` are retried; the last error is thrown unchanged.
 */
export async function callWithRetry<Value>(
  run: (signal: AbortSignal) => Promise<Value>,
  options: CallWithRetryOptions,
): Promise<Value> {
  const policy = { ...defaultRetryPolicy, ...options.retry };
  const wait = options.wait ?? defaultWait;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? 30_000;
  for (let attempt = 0; ; attempt += 1) {
    // An abort event never fires for a signal that is already aborted, so check it before each attempt.
    options.signal?.throwIfAborted();
    try {
      return await attemptWithTimeout(run, timeoutMs, options.operation, options.signal);
    } catch (error) {
      const retryable = MemoryError.isInstance(error) && error.isRetryable;
      if (!retryable || attempt >= policy.maxRetries || options.signal?.aborted) throw error;
      const asked = error.retryAfterMs;
      if (asked !== undefined && asked > policy.maxRetryAfterMs) throw error;
      const backoff = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.backoffFactor ** attempt);
      await wait(asked ?? Math.floor(random() * backoff), options.signal);
    }
  }
}
