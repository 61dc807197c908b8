/**
 * The entry the conformance CLI loads to check the reference adapter. Not published and not
 * exported: it only wires fresh adapters to one shared fault switch.
 */
import { MemoryConfigurationError, type MemoryAdapter } from '@memplane/core';
import { createMemoryAdapter, createMemoryAdapterFaults, createMemoryStore, type MemoryStore } from './src/index';

/** The fault switch shared by every adapter this entry creates. */
export const faults = createMemoryAdapterFaults();

/** A short timeout, so the suite's timeout rule fails fast under the `timeout` fault. */
const timeoutMs = 50;

let latestStore: MemoryStore | undefined;

/** A fresh adapter over a fresh store. */
export function createAdapter(): MemoryAdapter {
  latestStore = createMemoryStore();
  return createMemoryAdapter({ store: latestStore, faults, timeoutMs });
}

/** A second adapter over the store of the adapter most recently made by {@link createAdapter}. */
export function createPeerAdapter(): MemoryAdapter {
  if (latestStore === undefined) {
    throw new MemoryConfigurationError({ message: 'Call createAdapter() before createPeerAdapter().' });
  }
  return createMemoryAdapter({ store: latestStore, faults, timeoutMs });
}

export default createAdapter;
