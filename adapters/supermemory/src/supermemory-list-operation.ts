import {
  InvalidCursorError,
  type CursorBinding,
  type MemoryListPage,
  type MemoryListRequest,
  type MemorySnippet,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { maximumProviderPageSize, memoryListResponseSchema, type SupermemoryMemoryEntry } from './supermemory-api-schemas';
import { createDocumentRelation } from './supermemory-document-relation';
import { keepIfInScope, memoryToSnippet } from './supermemory-record-mapping';
import { decodeRecordMetadata, matchesMetadataFilter, metadataFilterToConditions } from './supermemory-record-metadata';
import { listMemories } from './supermemory-raw-endpoints';
import { scopeToConditions } from './supermemory-scope-mapping';

/** The most provider pages one `list` call reads while it fills its page. */
const maximumPagesPerCall = 10;

/**
 * Where a listing stands: the provider page to read next, its page size (fixed for the whole
 * walk, so page numbers keep their meaning), the last entry already seen (`createdAt` and id)
 * and the provider's total when the cursor was issued.
 */
const positionSchema = z.strictObject({
  page: z.number().int().positive(),
  size: z.number().int().min(1).max(maximumProviderPageSize),
  after: z.tuple([z.string(), z.string()]),
  total: z.number().int().nonnegative(),
});

type Position = z.output<typeof positionSchema>;
type EntryKey = [string, string];

const keyOf = (entry: SupermemoryMemoryEntry): EntryKey => [entry.createdAt, entry.id];
const isAfter = (key: EntryKey, after: EntryKey) => key[0] > after[0] || (key[0] === after[0] && key[1] > after[1]);

function decodePosition(context: SupermemoryAdapterContext, cursor: string, binding: CursorBinding): Position {
  const position = positionSchema.safeParse(context.cursors.decode(cursor, binding));
  if (!position.success) throw new InvalidCursorError({ reason: 'malformed', cause: position.error });
  return position.data;
}

/** Where to resume inside a fetched page: just after the last seen entry. */
function resumeIndex(entries: SupermemoryMemoryEntry[], after: EntryKey | undefined): number {
  if (after === undefined) return 0;
  const exact = entries.findIndex((entry) => entry.id === after[1]);
  if (exact !== -1) return exact + 1;
  const next = entries.findIndex((entry) => isAfter(keyOf(entry), after));
  return next === -1 ? entries.length : next;
}

/**
 * `list`: memory entries of the company's container through `POST /v4/memories/list` (the
 * SDK's `client.post`), oldest first, filtered by scope and scalar metadata values, then
 * checked again after retrieval. Supermemory pages by page number; the signed cursor keeps
 * the page and the last entry seen, so entries appended later are not duplicated, forgotten
 * entries (kept by Supermemory and flagged) do not shift positions, and a listing that shrank
 * since the cursor was issued steps back a page to avoid a gap. Forgotten and superseded
 * entries are never returned.
 */
export async function listSupermemoryRecords(
  context: SupermemoryAdapterContext,
  request: MemoryListRequest,
): Promise<MemoryListPage> {
  const binding: CursorBinding = { scope: request.scope, listing: 'memories', filter: request.metadataFilter ?? null };
  const limit = request.limit ?? 50;
  const position = request.cursor === undefined ? undefined : decodePosition(context, request.cursor, binding);
  const size = position?.size ?? Math.min(limit, maximumProviderPageSize);
  const filters = { AND: [...scopeToConditions(request.scope), ...metadataFilterToConditions(request.metadataFilter)] };
  const containerTag = context.containerTagOf(request.scope.companyId);
  const items: MemorySnippet[] = [];
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  let page = position?.page ?? 1;
  let after: EntryKey | undefined = position?.after;
  let steppedBack = false;
  let lastTotal = position?.total ?? 0;
  const relation = createDocumentRelation(context, request.scope.companyId, usage);
  for (let read = 0; read < maximumPagesPerCall; read += 1) {
    const { value, usage: callUsage } = await context.call({ operation: 'list' }, memoryListResponseSchema, (options) =>
      listMemories(context.client, { containerTags: [containerTag], page, limit: size, sort: 'createdAt', order: 'asc', filters }, options),
    );
    usage.push(callUsage);
    const entries = value.memoryEntries;
    const total = value.pagination.totalItems;
    lastTotal = total;
    const first = entries[0];
    const shrank = position !== undefined && total < position.total;
    if (!steppedBack && shrank && page > 1 && after !== undefined && first !== undefined && isAfter(keyOf(first), after)) {
      steppedBack = true;
      page -= 1;
      continue;
    }
    const isLastPage = page >= value.pagination.totalPages || entries.length < size;
    for (let index = resumeIndex(entries, after); index < entries.length; index += 1) {
      const entry = entries[index] as SupermemoryMemoryEntry;
      after = keyOf(entry);
      if (entry.isForgotten !== true && entry.isLatest !== false) {
        let decoded = decodeRecordMetadata(entry.metadata, warnings);
        // Only an entry without a company marker of its own costs a look at its source document.
        if (decoded.scope === undefined) decoded = (await relation.decode(entry, warnings)).decoded;
        if (keepIfInScope(entry.id, decoded, request.scope, warnings) && matchesMetadataFilter(decoded.metadata, request.metadataFilter)) {
          items.push(memoryToSnippet(entry, decoded));
        }
      }
      if (items.length === limit) {
        const atPageEnd = index === entries.length - 1;
        if (atPageEnd && isLastPage) return { items, usage, warnings };
        const next: Position = { page: atPageEnd ? page + 1 : page, size, after, total };
        return { items, nextCursor: context.cursors.encode(next, binding), usage, warnings };
      }
    }
    if (isLastPage) return { items, usage, warnings };
    page += 1;
    if (after === undefined) break;
  }
  const next: Position | undefined = after === undefined ? undefined : { page, size, after, total: lastTotal };
  return next === undefined
    ? { items, usage, warnings }
    : { items, nextCursor: context.cursors.encode(next, binding), usage, warnings };
}
