import {
  MemoryNotFoundError,
  type MemoryContextBundle,
  type MemoryQueryRequest,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0MemorySchema, mem0SearchSchema } from './mem0-api-schemas';
import { readMemoryId } from './mem0-handle';
import { assertNoReservedKeys, toMetadataFilterClauses } from './mem0-metadata';
import { findMem0ScopeViolation, toScopedSnippets, toSnippet } from './mem0-record-mapping';
import { toScopeFilterClauses } from './mem0-scope-mapping';

/** The mem0 `filters` of a read: the scope, then the caller's metadata filter, all under one `AND`. */
export function toReadFilters(scope: MemoryScope, metadataFilter: Record<string, unknown> | undefined, extra: Array<Record<string, unknown>> = []) {
  return { AND: [...toScopeFilterClauses(scope), ...toMetadataFilterClauses(metadataFilter), ...extra] };
}

/** `query`: `search` with the scope and metadata filters, best first. */
export async function queryMem0Memories(context: Mem0AdapterContext, request: MemoryQueryRequest): Promise<MemoryContextBundle> {
  assertNoReservedKeys(request.metadataFilter, 'metadataFilter', 'query request');
  const warnings: MemoryWarning[] = [];
  if (request.intent !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'intent', details: 'mem0 ranks every query the same way.' });
  }
  const topK = request.topK ?? 10;
  const threshold = context.settings.searchThreshold;
  const { value, usage } = await context.call({ operation: 'query (search)' }, mem0SearchSchema, (client) =>
    client.search(request.query, {
      filters: toReadFilters(request.scope, request.metadataFilter),
      topK,
      ...(threshold === undefined ? {} : { threshold }),
    }),
  );
  const snippets = toScopedSnippets(value.results, request.scope, request.metadataFilter, warnings).slice(0, topK);
  return { snippets, usage: [usage], warnings };
}

/** `get`: the SDK's `get`. A missing memory, an id mem0 refuses, or a memory outside the scope reads as null. */
export async function getMem0Memory(
  context: Mem0AdapterContext,
  handle: MemoryRecordHandle,
  scope: MemoryScope,
): Promise<MemorySnippet | null> {
  const memoryId = readMemoryId(handle);
  if (memoryId === undefined) return null;
  try {
    const { value } = await context.call({ operation: 'get', resourceId: handle.providerRecordId }, mem0MemorySchema, (client) =>
      client.get(memoryId),
    );
    return findMem0ScopeViolation(value, scope) === undefined ? toSnippet(value) : null;
  } catch (error) {
    if (MemoryNotFoundError.isInstance(error)) return null;
    throw error;
  }
}
