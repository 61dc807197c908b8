import { MemoryConfigurationError } from '@memplane/core';
import { createBruteForceVectorIndex } from '../bruteforce-vector-index';
import type { EngineStore, EngineStoreSession } from '../engine-store';
import { frozenCopy, emptyState, snapshotState, type MemoryStoreState } from './memory-store-state';
import { createMemorySession } from './memory-store-session';

/**
 * The in-memory store (§11.1), the default: for tests and quick trials. Transactions run one at a
 * time and roll back on error; vectors use a brute-force index. Nothing survives the process.
 */
export function createInMemoryStore(): EngineStore {
  let state: MemoryStoreState = emptyState();
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const live = createMemorySession(() => {
    if (closed) throw new MemoryConfigurationError({ message: 'The in-memory store is closed.' });
    return state;
  });
  return {
    name: 'memory',
    vectorIndex: createBruteForceVectorIndex(),
    ...live,
    async open(spec) {
      const stored = state.meta;
      if (stored === undefined) {
        if (spec.ddlMode === 'validate') {
          throw new MemoryConfigurationError({ message: 'The store has no service meta and ddlMode is validate: nothing was provisioned.' });
        }
        state.meta = frozenCopy(spec.meta);
        return state.meta;
      }
      if (stored.scopeSchemaHash !== spec.meta.scopeSchemaHash || stored.scopeFields.join('\u0000') !== spec.meta.scopeFields.join('\u0000')) {
        throw new MemoryConfigurationError({
          message: `The scope schema does not match the store's (stored ${stored.scopeSchemaHash.slice(0, 12)}, given ${spec.meta.scopeSchemaHash.slice(0, 12)}): migrate or rebuild the store.`,
        });
      }
      return stored;
    },
    transaction<T>(work: (tx: EngineStoreSession) => Promise<T>): Promise<T> {
      const run = async () => {
        const before = state;
        state = snapshotState(state);
        try {
          return await work(live);
        } catch (error) {
          state = before;
          throw error;
        }
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      closed = true;
    },
  };
}
