import { MemoryError, MemoryTimeoutError } from '@memplane/core';
import type { MemoryHookDeliveryStatus } from '../store/memory-service-records';
import { thrownMessage } from '../errors/thrown-message';

/**
 * How much longer than an operation's own deadline the delivery timer of a built-in delivery
 * waits. The operation's deadline cuts the provider call off and logs it; this timer only
 * catches what hangs outside the provider (the store, say).
 */
export const deliveryBackstopMs = 1000;

/** How one delivery ended. */
export interface DeliveryOutcome<Value> {
  status: Exclude<MemoryHookDeliveryStatus, 'skipped'>;
  attempts: number;
  value?: Value;
  error?: string;
  latencyMs: number;
}

/** Retry a built-in delivery only when the error says a retry may succeed right away. */
export function isImmediatelyRetryable(error: unknown): boolean {
  return MemoryError.isInstance(error) && error.isRetryable && !MemoryTimeoutError.isInstance(error) && (error.retryAfterMs ?? 0) === 0;
}

/** Retry a subscriber after anything but a timeout: a hanging subscriber is not given a second hang. */
export function isSubscriberRetryable(error: unknown): boolean {
  return !MemoryTimeoutError.isInstance(error);
}

/**
 * Runs `work` with a timeout per attempt and a bounded number of attempts. It never throws:
 * a failing or hanging receiver is isolated, and the outcome says what happened. On timeout
 * the attempt's signal is aborted, so receivers that honour it stop their work.
 */
export async function deliverWithTimeout<Value>(
  work: (signal: AbortSignal) => Value | Promise<Value>,
  options: { timeoutMs: number; maxAttempts: number; receiver: string; shouldRetry: (error: unknown) => boolean },
): Promise<DeliveryOutcome<Value>> {
  const started = performance.now();
  let attempts = 0;
  let lastError: unknown;
  while (attempts < options.maxAttempts) {
    attempts += 1;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new MemoryTimeoutError({ timeoutMs: options.timeoutMs, operation: `hook delivery to ${options.receiver}` });
        controller.abort(error);
        reject(error);
      }, options.timeoutMs);
      // A pending delivery timer must not keep the process alive on its own.
      (timer as { unref?: () => void }).unref?.();
    });
    try {
      const value = await Promise.race([Promise.resolve().then(() => work(controller.signal)), timeout]);
      return { status: 'succeeded', attempts, value, latencyMs: performance.now() - started };
    } catch (error) {
      lastError = error;
      if (!options.shouldRetry(error)) break;
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    status: MemoryTimeoutError.isInstance(lastError) ? 'timed_out' : 'failed',
    attempts,
    error: thrownMessage(lastError).slice(0, 2000),
    latencyMs: performance.now() - started,
  };
}
