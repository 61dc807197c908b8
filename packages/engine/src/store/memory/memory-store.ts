import { MemoryConfigurationError } from '@memplane/core';
import { createBruteForceVectorIndex } from '../bruteforce-vector-index';
import type { EngineStore, EngineStoreSession } from '../engine-store';
import { emptyState, frozenCopy, journaled, type MemoryStoreState } from './memory-store-state';
import { createMemorySession } from './memory-store-session';

/**
 * The in-memory store (§11.1), the default: for tests and quick trials. Calls run one at a time
 * (a transaction holds the store until it ends and, on error, undoes its own writes). Lexical
 * search reads `MemoryLexicalIndex` of `@memplane/rules` (posting lists, totals and windows kept
 * on write); listings walk each scope's write order.
 * Vectors use a brute-force index. Nothing survives the process.
 */
export function createInMemoryStore(): EngineStore {
  const state: MemoryStoreState = emptyState();
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const live = createMemorySession(() => {
    if (closed) throw new MemoryConfigurationError({ message: 'The in-memory store is closed.' });
    return state;
  });
  // Every call outside a transaction waits its turn too, so a rollback never undoes another caller's write.
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };
  const queued = Object.fromEntries(
    Object.entries(live).map(([name, method]) => [name, (...args: unknown[]) => serialised(() => (method as (...parameters: unknown[]) => Promise<unknown>)(...args))]),
  ) as unknown as EngineStoreSession;
  return {
    name: 'memory',
    vectorIndex: createBruteForceVectorIndex(),
    ...queued,
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
      return serialised(() => journaled(state, () => work(live)));
    },
    async close() {
      closed = true;
    },
  };
}
