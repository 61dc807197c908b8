import type { MemoryBinding } from '../bindings/memory-binding';
import type { ServiceInternals } from '../service/service-internals';

/** The delay before poll number `attempt` of a binding: doubling from the configured delay, at most ten minutes. */
export function extractionPollDelay(internals: ServiceInternals, attempt: number): number {
  return Math.min(internals.extractionPolling.delayMs * 2 ** attempt, 600_000);
}

/**
 * Queues a poll of the binding's pending extraction jobs (one waiting poll per binding at
 * most). Called when a capture or a retry leaves jobs queued or running. Never fails the
 * operation that called it: a queue failure is reported to `onBackgroundError`.
 */
export async function scheduleExtractionPoll(internals: ServiceInternals, binding: MemoryBinding, attempt = 0): Promise<void> {
  if (attempt >= internals.extractionPolling.maxPolls) return;
  try {
    await internals.queue.enqueue({
      kind: 'extraction_poll',
      payload: { companyId: binding.companyId, bindingId: binding.id, attempt },
      singletonKey: `${binding.companyId}:${binding.id}`,
      delayMs: extractionPollDelay(internals, attempt),
    });
  } catch (error) {
    internals.reportBackgroundError(error, 'scheduleExtractionPoll');
  }
}
