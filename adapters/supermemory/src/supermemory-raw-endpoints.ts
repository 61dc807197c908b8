import type Supermemory from 'supermemory';
import type { SupermemoryRequestOptions } from './supermemory-call';
import type { SupermemoryFilters } from './supermemory-scope-mapping';

/**
 * The v4 endpoints the SDK does not wrap yet, called through the SDK's own authenticated
 * `client.post` (same auth, headers and error types; never a second HTTP client).
 */

/** One memory to create with `POST /v4/memories`. */
export interface SupermemoryMemoryInput {
  content: string;
  isStatic?: boolean;
  metadata?: Record<string, string | number | boolean>;
}

/** `POST /v4/memories`: writes up to 100 memory entries, immediately searchable. */
export function createMemories(
  client: Supermemory,
  body: { containerTag: string; memories: SupermemoryMemoryInput[] },
  options: SupermemoryRequestOptions,
): PromiseLike<unknown> {
  return client.post('/v4/memories', { body, ...options });
}

/** The body of `POST /v4/memories/list`. The array form `containerTags` is what Supermemory's own clients send. */
export interface SupermemoryMemoryListBody {
  containerTags: [string];
  page: number;
  limit: number;
  sort: 'createdAt';
  order: 'asc' | 'desc';
  filters?: SupermemoryFilters;
}

/** `POST /v4/memories/list`: one page of memory entries, forgotten and superseded ones included (flagged). */
export function listMemories(
  client: Supermemory,
  body: SupermemoryMemoryListBody,
  options: SupermemoryRequestOptions,
): PromiseLike<unknown> {
  return client.post('/v4/memories/list', { body, ...options });
}
