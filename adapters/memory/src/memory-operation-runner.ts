import { performance } from 'node:perf_hooks';
import { callWithRetry, createApiCallError, type MemoryOperationName, type MemoryUsage } from '@memplane/core';
import { currentOperationFault, malformedBodies } from './memory-faults';
import type { MemoryAdapterContext } from './memory-settings';
import { memoryAdapterKey } from './memory-snippet';
import { definedFields } from './memory-defined-fields';

/** What an operation's work returns: its result, plus details to report in its usage entry. */
export type WithUsageDetails<Result> = Result & { usageDetails?: Record<string, unknown> };

/** Runs the work of operations the way a hosted adapter calls its provider. */
export interface MemoryOperationRunner {
  /**
   * Runs `work` as one provider call: the fault switch is checked first, the call is raced
   * against `timeoutMs` by core's `callWithRetry`, and nothing is retried (a fault stays in
   * force until reset, and the caller decides about retryable errors and `retryAfterMs`).
   */
  guarded<Result>(operation: MemoryOperationName, work: () => Result): Promise<Result>;
  /** Like `guarded`, and adds the usage entry with the latency of the work. */
  measured<Result extends object>(
    operation: MemoryOperationName,
    work: () => WithUsageDetails<Result>,
  ): Promise<Result & { usage: MemoryUsage[] }>;
}

/** Creates the runner of one adapter. */
export function createOperationRunner(context: Pick<MemoryAdapterContext, 'faults' | 'timeoutMs'>): MemoryOperationRunner {
  function guarded<Result>(operation: MemoryOperationName, work: () => Result): Promise<Result> {
    const url = `memory://${operation}`;
    return callWithRetry(
      async () => {
        const fault = currentOperationFault(context.faults);
        switch (fault?.kind) {
          case 'timeout':
            // The provider never answers; the timeout of callWithRetry fires.
            return new Promise<never>(() => {});
          case 'rate_limited':
            throw createApiCallError({ status: 429, headers: { 'retry-after': String(fault.retryAfterSeconds) }, url });
          case 'server_error':
            throw createApiCallError({ status: fault.status, url });
          case 'malformed_body':
            // A body of the wrong shape, on purpose: defineMemoryAdapter must refuse it.
            return malformedBodies[operation] as Result;
          default:
            return work();
        }
      },
      { operation: `memory ${operation}`, timeoutMs: context.timeoutMs, retry: { maxRetries: 0 } },
    );
  }

  function measured<Result extends object>(
    operation: MemoryOperationName,
    work: () => WithUsageDetails<Result>,
  ): Promise<Result & { usage: MemoryUsage[] }> {
    return guarded(operation, () => {
      const started = performance.now();
      const { usageDetails, ...result } = work();
      const usage: MemoryUsage = {
        provider: memoryAdapterKey,
        attributionMode: 'untracked',
        latencyMs: performance.now() - started,
        ...definedFields({ details: usageDetails }),
      };
      return { ...(result as Result), usage: [usage] };
    });
  }

  return { guarded, measured };
}
