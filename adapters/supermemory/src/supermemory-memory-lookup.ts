import type { MemoryScope, MemoryUsage } from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { maximumProviderPageSize, memoryListResponseSchema, type SupermemoryMemoryEntry } from './supermemory-api-schemas';
import { metadataKeys } from './supermemory-record-metadata';
import { listMemories } from './supermemory-raw-endpoints';
import { scopeToConditions } from './supermemory-scope-mapping';

/** The most pages a lookup scans before it gives up (only when the key filter finds nothing). */
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
 * Finds a memory entry by id. Supermemory has no get-by-id for memory entries, so this is
 * the memory list of the company's container, filtered on the record key the adapter wrote
 * (`mp_key`), which every version of a record shares: normally one call. A superseded
 * version resolves to the record's latest version when the key identifies one record.
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
    if (page >= value.pagination.totalPages) break;
  }
  if (entry === undefined) return undefined;
  if (isCurrent(entry)) return { entry, current: entry };
  if (entry.isForgotten === true || recordKey === undefined) return { entry, current: undefined };
  const versions = seen.filter(isCurrent);
  return { entry, current: versions.length === 1 ? versions[0] : undefined };
}
