import type { MemoryRecordHandle } from '@memplane/core';

/** The provider key of the Example adapter. Every handle it issues carries it. */
export const exampleProviderKey = 'example';

const recordPrefix = 'record:';

/**
 * Makes the handle of an API record. The id is prefixed with its kind (`record:<id>`) so
 * a later version can issue handles of other kinds without breaking the old ones.
 */
export function toRecordHandle(recordId: string): MemoryRecordHandle {
  return { providerKey: exampleProviderKey, providerRecordId: `${recordPrefix}${recordId}` };
}

/** The API record id a handle points at, or undefined when it is not a record handle. */
export function readRecordId(handle: MemoryRecordHandle): string | undefined {
  if (!handle.providerRecordId.startsWith(recordPrefix)) return undefined;
  const recordId = handle.providerRecordId.slice(recordPrefix.length);
  return recordId === '' ? undefined : recordId;
}
