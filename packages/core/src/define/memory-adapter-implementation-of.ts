import type { MemoryAdapter } from '../memory-adapter/v1/memory-adapter-v1';
import type { MemoryAdapterImplementation } from './memory-adapter-implementation';

/**
 * The non-enumerable property under which `defineMemoryAdapter` keeps the implementation it
 * wraps. `Symbol.for`, so two copies of `@memplane/core` agree on it.
 */
export const memoryAdapterImplementationKey: unique symbol = Symbol.for('memplane.memoryAdapter.implementation');

/**
 * The implementation an adapter object from `defineMemoryAdapter` wraps, or `undefined` for any
 * other object (a hand-written adapter, a copy made by spreading, a proxy around it).
 *
 * This is how the conformance suite checks what the adapter itself returns, before the wrapper
 * drops records outside the requested scope: a record the wrapper had to drop is still a bug of
 * the adapter. Application code has no reason to call it.
 */
export function memoryAdapterImplementationOf(adapter: MemoryAdapter): MemoryAdapterImplementation | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(adapter, memoryAdapterImplementationKey);
  if (descriptor === undefined || descriptor.enumerable === true) return undefined;
  const implementation: unknown = descriptor.value;
  return typeof implementation === 'object' && implementation !== null
    ? (implementation as MemoryAdapterImplementation)
    : undefined;
}
