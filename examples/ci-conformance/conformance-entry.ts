/**
 * The conformance module of your adapter: `memplane-conformance ./conformance-entry.ts` loads it,
 * and the vitest file imports it, so both runs check the same setup. Replace the in-memory
 * adapter with yours; keep the export names.
 */
import { MemoryConfigurationError, type MemoryAdapter } from '@memplane/core';
import { createMemoryAdapter, createMemoryAdapterFaults, createMemoryStore, type MemoryStore } from '@memplane/memory';

/**
 * The fault switch the `errors` rules use. A hosted adapter passes the `faults` of its
 * `@memplane/test-server` fake here instead.
 */
export const faults = createMemoryAdapterFaults();

// Short, so the rule that injects a `timeout` fault sees the adapter give up quickly.
const timeoutMs = 50;

let latestStore: MemoryStore | undefined;

/** A fresh adapter over a fresh backend. The suite calls it once per rule. */
export function createAdapter(): MemoryAdapter {
  latestStore = createMemoryStore();
  return createMemoryAdapter({ store: latestStore, faults, timeoutMs });
}

/**
 * A second adapter over the backend of the adapter `createAdapter` made last, as another
 * process would see it. The `scope.peer` rules check that cursors and records travel between them.
 */
export function createPeerAdapter(): MemoryAdapter {
  if (latestStore === undefined) {
    throw new MemoryConfigurationError({ message: 'Call createAdapter() before createPeerAdapter().' });
  }
  return createMemoryAdapter({ store: latestStore, faults, timeoutMs });
}

export default createAdapter;
