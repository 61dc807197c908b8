import { describe, expect, it } from 'vitest';
import type { MemoryAdapter } from '../memory-adapter/v1/memory-adapter-v1';
import { defineMemoryAdapter } from './define-memory-adapter';
import type { MemoryAdapterImplementation } from './memory-adapter-implementation';
import { memoryAdapterImplementationKey, memoryAdapterImplementationOf } from './memory-adapter-implementation-of';

const implementation: MemoryAdapterImplementation = {
  key: 'hook-test',
  capabilities: {},
  capture: async () => ({}),
  upsertRecords: async () => ({}),
  query: async () => ({ snippets: [] }),
  list: async () => ({ items: [] }),
  get: async () => null,
  forget: async () => ({}),
};

describe('memoryAdapterImplementationOf', () => {
  it('returns the implementation defineMemoryAdapter wraps, kept under a non-enumerable symbol', () => {
    const adapter = defineMemoryAdapter(implementation);
    expect(memoryAdapterImplementationOf(adapter)).toBe(implementation);
    expect(Object.keys(adapter)).not.toContain(String(memoryAdapterImplementationKey));
    expect(Object.getOwnPropertySymbols({ ...adapter })).toEqual([]);
    expect(JSON.stringify(Object.getOwnPropertyDescriptor(adapter, memoryAdapterImplementationKey)?.enumerable)).toBe('false');
  });

  it('returns undefined for a hand-written adapter, a spread copy, or an enumerable look-alike', () => {
    const adapter = defineMemoryAdapter(implementation);
    expect(memoryAdapterImplementationOf({ ...adapter })).toBeUndefined();
    const lookAlike = { ...adapter, [memoryAdapterImplementationKey]: implementation } as MemoryAdapter;
    expect(memoryAdapterImplementationOf(lookAlike)).toBeUndefined();
  });
});
