import type { MemoryAdapter } from '@memplane/core';
import { createMemoryAdapter, createMemoryAdapterFaults, createMemoryStore, type MemoryStore } from '@memplane/memory';
import type { ConformanceOptions } from '../../conformance-options';
import type { AdapterBreaker } from './wrap-adapter';

/**
 * Test-only. Conformance options for the in-memory reference adapter, optionally with a bug
 * planted by `breaker` into every adapter (and peer) it creates. Each adapter gets a fresh
 * store; the peer shares the store of the latest adapter, and all share one fault switch.
 */
export function referenceOptions(name: string, breaker?: AdapterBreaker): ConformanceOptions {
  const faults = createMemoryAdapterFaults();
  // A short timeout keeps the timeout rules fast; the adapter's own timer fires, nothing sleeps.
  const timeoutMs = 20;
  const plant = (adapter: MemoryAdapter) => (breaker === undefined ? adapter : breaker(adapter));
  let latestStore: MemoryStore | undefined;
  return {
    name,
    faults,
    createAdapter() {
      latestStore = createMemoryStore();
      return plant(createMemoryAdapter({ store: latestStore, faults, timeoutMs }));
    },
    createPeerAdapter() {
      return plant(createMemoryAdapter({ store: latestStore ?? createMemoryStore(), faults, timeoutMs }));
    },
  };
}
