import {
  MemoryApiCallError,
  type CursorBinding,
  type MemoryListPage,
  type MemoryListRequest,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0MaximumPageSize, mem0PageSchema, type Mem0Memory } from './mem0-api-schemas';
import {
  createdAtKey,
  decodePosition,
  digestId,
  encodePosition,
  maximumSeenDigests,
  type Mem0ListPosition,
} from './mem0-list-position';
import { assertNoReservedKeys } from './mem0-metadata';
import { toReadFilters } from './mem0-read-operations';
import { toScopedSnippets } from './mem0-record-mapping';

type Direction = 'ascending' | 'descending';
type KeysetPosition = Extract<Mem0ListPosition, { kind: 'keyset' }>;

/** The most getAll calls one list call makes while skipping records it already returned. */
const maximumCallsPerPage = 10;

interface Walk {
  context: Mem0AdapterContext;
  request: MemoryListRequest;
  limit: number;
  usage: MemoryUsage[];
  warnings: MemoryWarning[];
}

async function fetchPage(walk: Walk, page: number, pageSize: number, extra: Array<Record<string, unknown>> = []) {
  const { request } = walk;
  const { value, usage } = await walk.context.call({ operation: 'list (getAll)' }, mem0PageSchema, (client) =>
    client.getAll({ filters: toReadFilters(request.scope, request.metadataFilter, extra), page, pageSize }),
  );
  walk.usage.push(usage);
  return value;
}

const keyCache = new Map<string, string | undefined>();

/** `createdAtKey`, remembered: a page holds many records written at the same instant. */
function keyOf(createdAt: string): string | undefined {
  const cached = keyCache.get(createdAt);
  if (cached !== undefined || keyCache.has(createdAt)) return cached;
  const key = createdAtKey(createdAt);
  if (keyCache.size >= 4096) keyCache.clear();
  keyCache.set(createdAt, key);
  return key;
}

/** The order of a page by `created_at`: one direction, both (all equal), or none (unordered or unreadable). */
function orderOf(memories: Mem0Memory[]): { ascending: boolean; descending: boolean } {
  const keys = memories.map((memory) => keyOf(memory.createdAt));
  if (keys.some((key) => key === undefined)) return { ascending: false, descending: false };
  let ascending = true;
  let descending = true;
  for (let index = 1; index < keys.length; index += 1) {
    const [previous, current] = [keys[index - 1] as string, keys[index] as string];
    if (current < previous) ascending = false;
    if (current > previous) descending = false;
  }
  return { ascending, descending };
}

/** Whether mem0 holds records newer than `createdAt` (one record asked for): tells the direction of an all-ties first page. */
async function hasNewer(walk: Walk, createdAt: string): Promise<boolean> {
  const probe = await fetchPage(walk, 1, 1, [{ created_at: { gt: createdAt } }]);
  return probe.results.length > 0;
}

/**
 * The direction of mem0's order, read from the first page. A page whose records all share
 * one timestamp tells nothing; when mem0 has more, one probe for a newer record decides.
 */
async function directionOf(walk: Walk, results: Mem0Memory[], order: { ascending: boolean; descending: boolean }, providerHasMore: boolean): Promise<Direction> {
  if (!order.ascending) return 'descending';
  if (!order.descending || !providerHasMore) return 'ascending';
  return (await hasNewer(walk, (results[0] as Mem0Memory).createdAt)) ? 'ascending' : 'descending';
}

/** Whether a record lies before the position in the walk's direction (already examined). */
function isBehind(memory: Mem0Memory, position: KeysetPosition, seen: Set<string>): boolean {
  const key = keyOf(memory.createdAt) as string;
  const positionKey = keyOf(position.createdAt) as string;
  if (key === positionKey) return seen.has(digestId(memory.id));
  return position.direction === 'ascending' ? key < positionKey : key > positionKey;
}

function finish(walk: Walk, memories: Mem0Memory[], nextPosition: Mem0ListPosition | undefined, binding: CursorBinding): MemoryListPage {
  const items = toScopedSnippets(memories, walk.request.scope, walk.request.metadataFilter, walk.warnings);
  const page: MemoryListPage = { items, usage: walk.usage, warnings: walk.warnings };
  if (nextPosition !== undefined) page.nextCursor = encodePosition(walk.context.cursors, nextPosition, binding);
  return page;
}

/** mem0 returned no `created_at` order: page by mem0's own page numbers, and say what that costs. */
async function listByOffset(walk: Walk, offset: number, binding: CursorBinding): Promise<MemoryListPage> {
  walk.warnings.push({
    type: 'compatibility',
    feature: 'pagination',
    details: 'mem0 returned memories in no created_at order; pages follow mem0 page numbers and can skip or repeat records that change during the walk.',
  });
  const pageSize = Math.min(walk.limit, mem0MaximumPageSize);
  const value = await fetchPage(walk, Math.floor(offset / pageSize) + 1, pageSize);
  const memories = value.results.slice(offset % pageSize, pageSize);
  const next = offset + memories.length;
  const more = value.next !== null && value.next !== undefined && memories.length > 0;
  return finish(walk, memories, more ? { kind: 'offset', offset: next } : undefined, binding);
}

/**
 * `list`: a keyset walk over mem0's `getAll`. The position travels in a signed core cursor
 * bound to the scope and the metadata filter. Each page asks mem0 for the records at or
 * beyond the position's `created_at` (page 1, at most 200: the limit plus the records to
 * skip), drops those already examined, and returns up to `limit`. Records added,
 * changed or forgotten during the walk never shift it, so no record is skipped or repeated.
 */
export async function listMem0Memories(context: Mem0AdapterContext, request: MemoryListRequest): Promise<MemoryListPage> {
  assertNoReservedKeys(request.metadataFilter, 'metadataFilter', 'list request');
  const binding: CursorBinding = { scope: request.scope, listing: 'records', filter: request.metadataFilter ?? null };
  let position = request.cursor === undefined ? undefined : decodePosition(context.cursors, request.cursor, binding);
  const walk: Walk = { context, request, limit: request.limit ?? 50, usage: [], warnings: [] };
  if (position?.kind === 'offset') return listByOffset(walk, position.offset, binding);

  const seen = new Set(position?.seen ?? []);
  // No extra record to learn whether more follow: mem0's `next` says so.
  const pageSize = Math.min(mem0MaximumPageSize, walk.limit + seen.size);
  const taken: Mem0Memory[] = [];
  let direction: Direction | undefined = position?.direction;
  let lastExamined: Mem0Memory | undefined;
  for (let call = 1; call <= maximumCallsPerPage; call += 1) {
    const keyset = position === undefined ? [] : [{ created_at: { [position.direction === 'ascending' ? 'gte' : 'lte']: position.createdAt } }];
    const value = await fetchPage(walk, call, pageSize, keyset);
    const order = orderOf(value.results);
    const providerHasMore = value.next !== null && value.next !== undefined;
    const unordered = !order.ascending && !order.descending;
    // Only a walk that has returned nothing yet may fall back to mem0's page numbers; a later
    // page out of order is ordered here instead, so nothing is repeated or skipped.
    if (unordered && position === undefined && call === 1) return listByOffset(walk, 0, binding);
    if (!unordered && direction === undefined && value.results.length > 0) direction = await directionOf(walk, value.results, order, providerHasMore);
    if (unordered || (direction !== undefined && !(direction === 'ascending' ? order.ascending : order.descending))) {
      const ordered = await readBeyondPosition(walk, position, direction ?? 'ascending');
      return finishOrdered(walk, ordered, position, binding);
    }
    for (const memory of value.results) {
      if (position !== undefined && isBehind(memory, position, seen)) continue;
      if (taken.length === walk.limit) {
        return finish(walk, taken, nextKeyset(direction as Direction, lastExamined as Mem0Memory, taken, position), binding);
      }
      taken.push(memory);
      lastExamined = memory;
    }
    if (!providerHasMore) return finish(walk, taken, undefined, binding);
    if (taken.length === walk.limit) {
      return finish(walk, taken, nextKeyset(direction as Direction, lastExamined as Mem0Memory, taken, position), binding);
    }
  }
  if (lastExamined === undefined || direction === undefined) {
    throw new MemoryApiCallError({
      message: `mem0 list made no progress in ${maximumCallsPerPage} getAll calls: more than ${maximumSeenDigests} memories share one created_at.`,
      isRetryable: false,
    });
  }
  return finish(walk, taken, nextKeyset(direction, lastExamined, taken, position), binding);
}

/**
 * mem0 answered a later page in no `created_at` order: reads every record beyond the
 * position (all pages of the same keyset filter) and orders them here. Fails with a typed
 * error, never silently, when they cannot all be read: more than `maximumCallsPerPage`
 * pages, fewer records than mem0 counted, or a timestamp that cannot be compared.
 */
async function readBeyondPosition(walk: Walk, position: KeysetPosition | undefined, direction: Direction): Promise<{ direction: Direction; memories: Mem0Memory[] }> {
  const keyset = position === undefined ? [] : [{ created_at: { [direction === 'ascending' ? 'gte' : 'lte']: position.createdAt } }];
  const byId = new Map<string, Mem0Memory>();
  let counted = 0;
  let complete = false;
  for (let page = 1; page <= maximumCallsPerPage && !complete; page += 1) {
    const value = await fetchPage(walk, page, mem0MaximumPageSize, keyset);
    counted = value.count;
    for (const memory of value.results) byId.set(memory.id, memory);
    complete = value.next === null || value.next === undefined;
  }
  if (!complete || byId.size < counted) {
    throw new MemoryApiCallError({
      message: `mem0 returned memories in no created_at order, and the ${counted} beyond this list position could not all be read (${byId.size} read); the walk stops rather than skip or repeat records.`,
      isRetryable: complete,
    });
  }
  const memories = [...byId.values()];
  if (memories.some((memory) => keyOf(memory.createdAt) === undefined)) {
    throw new MemoryApiCallError({ message: 'mem0 returned a memory whose created_at cannot be compared; the walk stops rather than skip or repeat records.', isRetryable: false });
  }
  const sign = direction === 'ascending' ? 1 : -1;
  memories.sort((left, right) => sign * ((keyOf(left.createdAt) as string) < (keyOf(right.createdAt) as string) ? -1 : keyOf(left.createdAt) === keyOf(right.createdAt) ? 0 : 1));
  walk.warnings.push({
    type: 'compatibility',
    feature: 'pagination',
    details: `mem0 returned a page in no created_at order; the adapter read the ${memories.length} memories beyond the list position and ordered them itself.`,
  });
  return { direction, memories };
}

/** A page of records the adapter ordered itself: those not yet examined, up to `limit`, and the position after them. */
function finishOrdered(walk: Walk, ordered: { direction: Direction; memories: Mem0Memory[] }, position: KeysetPosition | undefined, binding: CursorBinding): MemoryListPage {
  const seen = new Set(position?.seen ?? []);
  const ahead = position === undefined ? ordered.memories : ordered.memories.filter((memory) => !isBehind(memory, position, seen));
  const taken = ahead.slice(0, walk.limit);
  const last = taken.at(-1);
  const next = ahead.length > taken.length && last !== undefined ? nextKeyset(ordered.direction, last, taken, position) : undefined;
  return finish(walk, taken, next, binding);
}

/** The position after `last`: its timestamp, and the digests of every examined record at that timestamp. */
function nextKeyset(direction: Direction, last: Mem0Memory, taken: Mem0Memory[], previous: KeysetPosition | undefined): KeysetPosition {
  const key = keyOf(last.createdAt);
  const seen = taken.filter((memory) => keyOf(memory.createdAt) === key).map((memory) => digestId(memory.id));
  if (previous !== undefined && keyOf(previous.createdAt) === key) seen.unshift(...previous.seen);
  if (seen.length > maximumSeenDigests) {
    throw new MemoryApiCallError({
      message: `mem0 list cannot page past more than ${maximumSeenDigests} memories that share the created_at ${last.createdAt}.`,
      isRetryable: false,
    });
  }
  return { kind: 'keyset', direction, createdAt: last.createdAt, seen };
}
