import { MemoryConfigurationError } from '@memplane/core';
import { deliveryBackstopMs } from '../hooks/deliver-with-timeout';

/** What bounds the run of one queued hook delivery. */
export interface HookDeliveryBudget {
  /** The hook timeout of the built-in delivery, in milliseconds. */
  hookTimeoutMs: number;
  /** Attempts of each receiver. */
  maxAttempts: number;
  /** The longest subscriber timeout, in milliseconds. */
  subscriberTimeoutMs: number;
}

/**
 * The longest a queued hook delivery can run: the built-in delivery (each attempt cut off by
 * its timeout, plus the backstop), then the subscribers in parallel (each attempt cut off by its
 * own timeout).
 */
export function longestHookDeliveryMs(budget: HookDeliveryBudget): number {
  return budget.maxAttempts * (budget.hookTimeoutMs + deliveryBackstopMs) + budget.maxAttempts * budget.subscriberTimeoutMs;
}

/**
 * Refuses a queue whose jobs expire before a hook delivery may end: the queue would hand the
 * still-running job to a second worker, and the capture would run twice. Throws
 * `MemoryConfigurationError` saying what to raise.
 */
export function assertQueueOutlivesDeliveries(jobExpiryMs: number | undefined, budget: HookDeliveryBudget, what: string): void {
  if (jobExpiryMs === undefined) return;
  const longest = longestHookDeliveryMs(budget);
  if (jobExpiryMs > longest) return;
  throw new MemoryConfigurationError({
    message:
      `The queue's job expiry (${jobExpiryMs} ms) must be above the longest hook delivery (${longest} ms: ${budget.maxAttempts} attempt(s) of ` +
      `the ${budget.hookTimeoutMs} ms hook timeout plus ${deliveryBackstopMs} ms, then ${budget.maxAttempts} of the ${budget.subscriberTimeoutMs} ms ` +
      `longest subscriber timeout), or a running delivery is handed to a second worker and written twice. ${what}`,
  });
}
