import {
  memorySourceKindSchema,
  scopeMatches,
  type MemoryScope,
  type MemorySnippet,
  type MemorySourceRef,
  type MemoryWarning,
} from '@memplane/core';
import type { Mem0Memory } from './mem0-api-schemas';
import { toMemoryHandle } from './mem0-handle';
import { matchesMetadataFilter, readStoredMetadata } from './mem0-metadata';
import { entityIdPrefix, isForeignEntityId } from './mem0-entity-id';
import { fromMem0Scope, mem0ScopeMetadataKeys } from './mem0-scope-mapping';

const sourceKinds = new Set<unknown>(memorySourceKindSchema.options);
const sourceFields = new Set(['kind', 'companyId', 'issueId', 'commentId', 'documentKey', 'runId', 'activityId', 'externalRef']);

/**
 * The source a memory carries, or undefined when there is none or it is not a source ref.
 * A hand-written check of the shape core validates on the way out (a zod parse per record
 * costs more than the rest of the mapping), so one bad record cannot fail a whole page.
 */
function readSource(stored: unknown): MemorySourceRef | undefined {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return undefined;
  const source = stored as Record<string, unknown>;
  if (!sourceKinds.has(source.kind) || typeof source.companyId !== 'string') return undefined;
  // for-in rather than Object.keys: no key array per record (JSON objects inherit no keys).
  for (const field in source) {
    if (!sourceFields.has(field) || typeof source[field] !== 'string') return undefined;
  }
  return source as unknown as MemorySourceRef;
}

/**
 * Maps a mem0 memory to a snippet: the text, the scope rebuilt from `app_id` and the
 * scope metadata, the caller's metadata without the adapter's keys, and the provenance.
 */
export function toSnippet(memory: Mem0Memory, warnings?: MemoryWarning[], scope?: MemoryScope): MemorySnippet {
  const stored = readStoredMetadata(memory.metadata ?? {});
  const snippet: MemorySnippet = {
    handle: toMemoryHandle(memory.id),
    text: memory.memory,
    scope: scope ?? fromMem0Scope(memory.appId ?? '', memory.metadata ?? {}),
    createdAt: memory.createdAt,
  };
  if (memory.updatedAt !== null && memory.updatedAt !== undefined) snippet.updatedAt = memory.updatedAt;
  if (memory.score !== null && memory.score !== undefined) snippet.score = memory.score;
  if (stored.summary !== undefined) snippet.summary = stored.summary;
  if (stored.metadata !== undefined) snippet.metadata = stored.metadata;
  const source = readSource(stored.source);
  if (source !== undefined) snippet.source = source;
  else if (stored.source !== undefined) {
    warnings?.push({ type: 'compatibility', feature: 'source', details: `Memory ${memory.id} holds a source ref that is not valid; it was left out.` });
  }
  return snippet;
}

/**
 * Why a mem0 memory is outside the requested scope, or undefined when it is inside.
 * mem0 already filtered on `app_id` and the scope metadata; this is the adapter's own
 * second check of everything mem0 returns.
 */
export function findMem0ScopeViolation(
  memory: Mem0Memory,
  scope: MemoryScope,
  prefix: string = entityIdPrefix(scope.companyId),
  recordScope?: MemoryScope,
): string | undefined {
  if (memory.appId !== scope.companyId) return 'mem0 returned a memory of another app_id (company)';
  const metadata = memory.metadata ?? {};
  const storedCompany = metadata[mem0ScopeMetadataKeys.companyId];
  if (storedCompany !== undefined && storedCompany !== scope.companyId) return 'its scope metadata names another company';
  const { companyId } = scope;
  if (
    isForeignEntityId(memory.userId, companyId, prefix) ||
    isForeignEntityId(memory.agentId, companyId, prefix) ||
    isForeignEntityId(memory.runId ?? memory.sessionId, companyId, prefix)
  ) {
    return 'one of its entity ids belongs to another company';
  }
  if (!scopeMatches(recordScope ?? fromMem0Scope(memory.appId, metadata), scope)) return 'its scope metadata does not match the requested scope';
  const source = metadata.memplane_source as { companyId?: unknown } | null | undefined;
  if (typeof source === 'object' && source !== null && source.companyId !== scope.companyId) return 'its source belongs to another company';
  return undefined;
}

/**
 * The snippets of the memories inside the scope and matching the metadata filter, each
 * record's scope rebuilt once. A memory outside the scope is dropped and reported as a
 * `scope_violation` warning, never returned; one that only fails the filter (mem0 matched
 * loosely) is dropped silently.
 */
export function toScopedSnippets(
  memories: Mem0Memory[],
  scope: MemoryScope,
  metadataFilter: Record<string, unknown> | undefined,
  warnings: MemoryWarning[],
): MemorySnippet[] {
  const prefix = entityIdPrefix(scope.companyId);
  const snippets: MemorySnippet[] = [];
  for (const memory of memories) {
    const recordScope = fromMem0Scope(memory.appId ?? '', memory.metadata ?? {});
    const violation = findMem0ScopeViolation(memory, scope, prefix, recordScope);
    if (violation !== undefined) {
      warnings.push({ type: 'scope_violation', providerRecordId: toMemoryHandle(memory.id).providerRecordId, details: violation });
      continue;
    }
    const snippet = toSnippet(memory, warnings, recordScope);
    if (metadataFilter === undefined || matchesMetadataFilter(snippet.metadata, metadataFilter)) snippets.push(snippet);
  }
  return snippets;
}
