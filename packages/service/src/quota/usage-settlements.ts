import type { MemoryBindingUsage, MemoryCountedRecord } from '../store/memory-accounting-records';
import type { MemoryServiceStore } from '../store/memory-service-store';

/**
 * What writes to bindings without caps added, counted in batches. Nothing is checked against
 * such a binding, so its count only has to be right before anything reads or checks it:
 * a reservation, a forget, a deletion, or a flush of the service.
 */
export interface UsageSettlements {
  /** Queues the records one write added; they are written at the end of the event-loop turn, or once many are queued. */
  add(companyId: string, bindingId: string, records: MemoryCountedRecord[]): void;
  /** Writes everything queued. */
  flush(): Promise<void>;
}

const nothingReserved: MemoryBindingUsage = { records: 0, bytes: 0 };

/** Creates the queue over a store. A failed write is reported to `onError`; its records stay uncounted. */
export function createUsageSettlements(options: {
  store: MemoryServiceStore;
  maxQueuedRecords: number;
  onError: (error: unknown) => void;
}): UsageSettlements {
  let queued = new Map<string, { companyId: string; bindingId: string; records: MemoryCountedRecord[] }>();
  let queuedRecords = 0;
  let scheduled = false;
  let writing: Promise<void> = Promise.resolve();

  async function write(batch: typeof queued): Promise<void> {
    // One store call per binding: one transaction however many writes it had in the turn.
    for (const { companyId, bindingId, records } of batch.values()) {
      try {
        await options.store.settleBindingUsage(companyId, bindingId, nothingReserved, records);
      } catch (error) {
        options.onError(error);
      }
    }
  }

  function drain(): Promise<void> {
    if (queued.size === 0) return writing;
    const batch = queued;
    queued = new Map();
    queuedRecords = 0;
    // Writes stay in order, so a record written twice ends with its latest size.
    writing = writing.then(() => write(batch));
    return writing;
  }

  return {
    add(companyId, bindingId, records) {
      if (records.length === 0) return;
      const key = `${companyId}\u0000${bindingId}`;
      const pending = queued.get(key);
      if (pending === undefined) queued.set(key, { companyId, bindingId, records: [...records] });
      else pending.records.push(...records);
      queuedRecords += records.length;
      if (queuedRecords >= options.maxQueuedRecords) {
        void drain();
        return;
      }
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        void drain();
      });
    },
    flush: () => drain(),
  };
}
