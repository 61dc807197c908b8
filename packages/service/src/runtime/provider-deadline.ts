import { MemoryTimeoutError } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';

/** The service-side deadline of every provider call unless `settings.deadlines` says otherwise, in milliseconds. */
export const defaultProviderDeadlineMs = 30_000;

/**
 * The deadlines of provider calls: a default, and an operator's choice per binding. Hook
 * deliveries use the smaller of the binding's deadline and the hook timeout.
 */
export interface MemoryProviderDeadlines {
  /** The deadline of one provider call, in milliseconds. Default {@link defaultProviderDeadlineMs} (30 s). */
  defaultMs?: number;
  /**
   * The deadline of one binding's provider calls, or undefined for the default. Called once per
   * operation, so keep it cheap (a lookup by `binding.key` or `binding.providerId`).
   */
  forBinding?: (binding: Pick<MemoryBinding, 'id' | 'companyId' | 'key' | 'providerId'>) => number | undefined;
}

/** The deadline of one binding's calls, checked: a setting that returns nonsense falls back to the default. */
export function deadlineOf(deadlines: Required<Pick<MemoryProviderDeadlines, 'defaultMs'>> & MemoryProviderDeadlines, binding: MemoryBinding): number {
  const chosen = deadlines.forBinding?.(binding);
  return typeof chosen === 'number' && Number.isInteger(chosen) && chosen >= 1 && chosen <= 3_600_000 ? chosen : deadlines.defaultMs;
}

/**
 * Runs one provider call under a deadline. When the deadline passes first, the call's signal is
 * aborted and the promise rejects with `MemoryTimeoutError`; whatever the provider returns later
 * is discarded (the awaiting code never sees it, so nothing after the call runs for it), and a
 * late rejection is swallowed.
 */
export function callWithDeadline<Result>(
  work: () => Result | Promise<Result>,
  timeoutMs: number,
  operation: string,
  signal?: AbortController,
): Promise<Result> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = Promise.resolve().then(work);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new MemoryTimeoutError({ timeoutMs, operation });
      signal?.abort(error);
      reject(error);
    }, timeoutMs);
    // A waiting deadline never keeps a process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  });
  // A call that fails after its deadline must not surface as an unhandled rejection.
  call.catch(() => undefined);
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer));
}
