import type { MemoryRecordHandle } from '@memplane/core';

/** The provider key of the mem0 adapter. Every handle it issues carries it. */
export const mem0ProviderKey = 'mem0';

const memoryPrefix = 'memory:';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes the handle of a mem0 memory. The id carries its kind (`memory:<id>`), so get,
 * forget and correct know what they hold, and a later kind (an event, an export) can be
 * added without breaking old handles.
 */
export function toMemoryHandle(memoryId: string): MemoryRecordHandle {
  return { providerKey: mem0ProviderKey, providerRecordId: `${memoryPrefix}${memoryId}` };
}

/** The mem0 memory id a handle points at, or undefined when it is not a memory handle. */
export function readMemoryId(handle: MemoryRecordHandle): string | undefined {
  if (!handle.providerRecordId.startsWith(memoryPrefix)) return undefined;
  const memoryId = handle.providerRecordId.slice(memoryPrefix.length);
  return memoryId === '' ? undefined : memoryId;
}

/**
 * Whether an id can name a mem0 memory. mem0 documents memory ids as UUIDs and answers
 * 400 for anything else, which would fail a whole `memory_ids` filter.
 */
export function isMem0MemoryId(memoryId: string): boolean {
  return uuidPattern.test(memoryId);
}
