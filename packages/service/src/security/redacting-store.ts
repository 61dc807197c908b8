import type { MemoryServiceStore } from '../store/memory-service-store';
import type { SecretRedactor } from './secret-redactor';

// The store writes that hold text from providers or callers, with the positions of the
// arguments that carry it. Binding rows are left alone: they hold references, never values.
const redactedArguments: Partial<Record<keyof MemoryServiceStore, readonly number[]>> = {
  insertBinding: [1],
  updateBinding: [2],
  deleteBinding: [2],
  putTarget: [1],
  deleteTarget: [3],
  appendActivity: [0],
  appendOperations: [0],
  appendHookDeliveries: [0],
  upsertExtractionJobs: [0],
  appendCostEvents: [0],
  appendFinanceEvents: [0],
  pruneOperations: [2],
};

/**
 * The store as the service uses it: every write of log-like data (activity, operations, hook
 * deliveries, extraction jobs, cost and finance events, the prune's own entry) goes through the
 * redactor first, so no resolved secret value reaches a table, whatever path produced the text.
 * Reads and every other method pass through unchanged, the token table's included: a token's
 * hash must stay the hash a request is matched by, and its row holds no provider or caller text.
 */
export function createRedactingStore(store: MemoryServiceStore, redactor: SecretRedactor): MemoryServiceStore {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      const positions = redactedArguments[property as keyof MemoryServiceStore];
      if (positions === undefined || typeof value !== 'function') return value;
      let wrapper = wrapped.get(property);
      if (wrapper === undefined) {
        const method = value as (...values: unknown[]) => unknown;
        wrapper = (...values: unknown[]) => {
          if (redactor.active) for (const position of positions) values[position] = redactor.redact(values[position]);
          return method.apply(target, values);
        };
        wrapped.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
