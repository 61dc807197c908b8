import { MemoryApiCallError, type MemoryScope, type MemoryUsage } from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { maximumProviderPageSize, memoryListResponseSchema, type SupermemoryMemoryEntry } from './supermemory-api-schemas';
import { metadataKeys } from './supermemory-record-metadata';
import { listMemories } from './supermemory-raw-endpoints';
import { scopeToConditions } from './supermemory-scope-mapping';

/** The most pages a lookup reads (2,000 entries): beyond, the record is neither found nor proven absent. */
const maximumLookupPages = 20;

/** The entry a memory handle points at, and the version that currently stands for it. */
export interface MemoryLookup {
  /** The entry with the handle's id. */
  entry: SupermemoryMemoryEntry;
  /** The latest, not forgotten version of the record, or undefined when it was forgotten. */
  current: SupermemoryMemoryEntry | undefined;
}

const isCurrent = (entry: SupermemoryMemoryEntry) => entry.isLatest !== false && entry.isForgotten !== true;

/**
 * Finds a memory entry by id. Supermemory has no get-by-id for memory entries, so this reads
 * the memory list of the company's container, with a filter on the record key the adapter
 * wrote (`mp_key`), which every version of a record shares: normally one call. That list
 * and its `filters` are not documented, so nothing here relies on the filter: entries are
 * matched by id and key on this side, and when the record is not found before the list ends
 * (a server that ignores the filter returns the whole container), the lookup throws a
 * `MemoryApiCallError` saying the record could not be proven found or absent, rather than
 * report it missing while it may still be stored. A superseded version resolves to the
 * record's latest version when the key identifies one record.
 */
export async function lookUpMemory(
  context: SupermemoryAdapterContext,
  scope: MemoryScope,
  memoryId: string,
  recordKey: string | undefined,
  usage: MemoryUsage[],
): Promise<MemoryLookup | undefined> {
  const conditions = scopeToConditions({ companyId: scope.companyId });
  if (recordKey !== undefined) conditions.push({ key: metadataKeys.recordKey, value: recordKey });
  const seen: SupermemoryMemoryEntry[] = [];
  let entry: SupermemoryMemoryEntry | undefined;
  let listEnded = false;
  for (let page = 1; page <= maximumLookupPages && entry === undefined; page += 1) {
    const { value, usage: callUsage } = await context.call({ operation: 'get' }, memoryListResponseSchema, (options) =>
      listMemories(
        context.client,
        {
          containerTags: [context.containerTagOf(scope.companyId)],
          page,
          limit: maximumProviderPageSize,
          sort: 'createdAt',
          order: 'asc',
          filters: { AND: conditions },
        },
        options,
      ),
    );
    usage.push(callUsage);
    seen.push(...value.memoryEntries);
    entry = value.memoryEntries.find((candidate) => candidate.id === memoryId);
    listEnded = page >= value.pagination.totalPages || value.memoryEntries.length === 0;
    if (listEnded) break;
  }
  if (entry === undefined) {
    if (listEnded) return undefined;
    throw new MemoryApiCallError({
      message: `Supermemory memory entry ${memoryId} was not found in the first ${seen.length} entries of the container, and the list did not end: it could not be proven found or absent (the memory list filter is not documented and may have been ignored).`,
      isRetryable: false,
    });
  }
  if (isCurrent(entry)) return { entry, current: entry };
  if (entry.isForgotten === true || recordKey === undefined) return { entry, current: undefined };
  // Matched on this side: a server that ignored the filter returned other records' entries too.
  const versions = seen.filter((candidate) => isCurrent(candidate) && candidate.metadata?.[metadataKeys.recordKey] === recordKey);
  return { entry, current: versions.length === 1 ? versions[0] : undefined };
}
