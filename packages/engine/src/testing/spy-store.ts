import type { EngineStore } from '../store/engine-store';
import { createInMemoryStore } from '../store/memory/memory-store';
import type { VectorIndex } from '../store/vector-index';

/** One recorded store call. */
export interface StoreCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

/** An in-memory store (and vector index) that records every call made to it, for tests. */
export function createSpyStore(): { store: EngineStore; calls: StoreCall[] } {
  const inner = createInMemoryStore();
  const calls: StoreCall[] = [];
  const record = <Target extends object>(target: Target): Target =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push({ method: String(property), args });
          const result = (value as (...parameters: unknown[]) => unknown).apply(object, args);
          return result;
        };
      },
    });
  const vectorIndex = inner.vectorIndex === undefined ? undefined : record<VectorIndex>(inner.vectorIndex);
  const store = record<EngineStore>({ ...inner, vectorIndex, transaction: (work) => inner.transaction((tx) => work(record(tx))) });
  return { store, calls };
}
