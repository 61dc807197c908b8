import { describe, expect, it } from 'vitest';
import { createStoreFixtures } from '../testing/store-fixtures';
import type { MemoryOperationEntry } from '../store/memory-service-records';
import type { MemoryServiceStore } from '../store/memory-service-store';
import { createOperationLogWriter } from './operation-log-writer';

function recordingStore(failures: number) {
  const batches: string[][] = [];
  let remaining = failures;
  const store = {
    async appendOperations(entries: MemoryOperationEntry[]) {
      if (remaining > 0) {
        remaining -= 1;
        throw new TypeError('disk full');
      }
      batches.push(entries.map((entry) => entry.id));
    },
  } as unknown as MemoryServiceStore;
  return { store, batches };
}

describe('operation log writer', () => {
  it('writes full batches at once and the rest on flush, in order', async () => {
    const fixtures = createStoreFixtures();
    const { store, batches } = recordingStore(0);
    const writer = createOperationLogWriter({ store, batchSize: 2, maxPendingEntries: 10, onError: () => undefined });
    const entries = Array.from({ length: 5 }, () => fixtures.operation());
    for (const entry of entries) await writer.append(entry);
    expect(batches).toEqual([[entries[0]!.id, entries[1]!.id], [entries[2]!.id, entries[3]!.id]]);
    expect(writer.pending()).toBe(1);
    await writer.flush();
    expect(batches.flat()).toEqual(entries.map((entry) => entry.id));
    expect(writer.counters()).toEqual({ written: 5, failedBatches: 0, droppedEntries: 0 });
  });

  it('keeps a failed batch for the next write, reports the error, and drops the oldest past the cap', async () => {
    const fixtures = createStoreFixtures();
    const { store, batches } = recordingStore(2);
    const errors: unknown[] = [];
    const writer = createOperationLogWriter({ store, batchSize: 2, maxPendingEntries: 2, onError: (error) => errors.push(error) });
    const entries = Array.from({ length: 4 }, () => fixtures.operation());
    for (const entry of entries) await writer.append(entry);
    expect(errors).toHaveLength(2);
    expect(writer.counters()).toEqual({ written: 3, failedBatches: 2, droppedEntries: 1 });
    await writer.flush();
    expect(batches.flat()).toEqual(entries.slice(1).map((entry) => entry.id));
  });
});
