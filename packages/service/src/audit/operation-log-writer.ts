import type { MemoryOperationEntry } from '../store/memory-service-records';
import type { MemoryServiceStore } from '../store/memory-service-store';

/** Counters of the operation log writer. */
export interface OperationLogWriterCounters {
  /** Entries written. */
  written: number;
  /** Batches that failed to write (their entries are retried with the next batch). */
  failedBatches: number;
  /** Entries dropped because too many were pending after failures. */
  droppedEntries: number;
}

/** Buffers operation log entries and writes them in batches. */
export interface OperationLogWriter {
  /**
   * Queues an entry. Returns undefined when it is only queued, or the write's promise when the
   * entry fills the batch (so a batch size of 1 writes every entry before its operation returns).
   */
  append(entry: MemoryOperationEntry): Promise<void> | undefined;
  /** Writes everything queued. Reads of the log call it first, so they see every operation. */
  flush(): Promise<void>;
  /** Entries queued and not yet written. */
  pending(): number;
  /** The counters. */
  counters(): OperationLogWriterCounters;
}

/** Creates the writer over a store. Failures never reach the operation; they go to `onError`. */
export function createOperationLogWriter(options: {
  store: MemoryServiceStore;
  batchSize: number;
  maxPendingEntries: number;
  onError: (error: unknown) => void;
}): OperationLogWriter {
  let buffer: MemoryOperationEntry[] = [];
  let scheduled = false;
  let writing: Promise<void> = Promise.resolve();
  const counters: OperationLogWriterCounters = { written: 0, failedBatches: 0, droppedEntries: 0 };

  async function writeBatch(batch: MemoryOperationEntry[]): Promise<void> {
    try {
      await options.store.appendOperations(batch);
      counters.written += batch.length;
    } catch (error) {
      counters.failedBatches += 1;
      // Keep the entries for the next write, oldest first, within the cap.
      const kept = [...batch, ...buffer];
      const overflow = Math.max(0, kept.length - options.maxPendingEntries);
      counters.droppedEntries += overflow;
      buffer = kept.slice(overflow);
      options.onError(error);
    }
  }

  function drain(): Promise<void> {
    if (buffer.length === 0) return writing;
    const batch = buffer;
    buffer = [];
    // Batches are written one after the other so the log keeps the order of the operations.
    writing = writing.then(() => writeBatch(batch));
    return writing;
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void drain();
    });
  }

  return {
    append(entry) {
      buffer.push(entry);
      if (buffer.length >= options.batchSize) return drain();
      schedule();
      return undefined;
    },
    async flush() {
      await drain();
      // A batch that failed put its entries back; one more attempt picks them up.
      if (buffer.length > 0) await drain();
    },
    pending: () => buffer.length,
    counters: () => ({ ...counters }),
  };
}
