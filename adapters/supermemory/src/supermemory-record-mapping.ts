import { scopeMatches, type MemoryScope, type MemorySnippet, type MemoryWarning } from '@memplane/core';
import type { SupermemoryDocument, SupermemoryMemoryEntry } from './supermemory-api-schemas';
import { toSupermemoryHandle } from './supermemory-handle';
import type { DecodedRecordMetadata } from './supermemory-record-metadata';

/** Why a record is outside the requested scope, or undefined when it is inside. */
export function findSupermemoryScopeViolation(decoded: DecodedRecordMetadata, scope: MemoryScope): string | undefined {
  if (decoded.scope === undefined) return 'the record carries no memplane company marker, so its tenant cannot be checked';
  if (decoded.scope.companyId !== scope.companyId) return 'Supermemory returned a record of another company';
  if (!scopeMatches(decoded.scope, scope)) return 'Supermemory returned a record whose scope does not match the requested scope';
  if (decoded.source !== undefined && decoded.source.companyId !== scope.companyId) {
    return 'the record source belongs to another company';
  }
  return undefined;
}

/** Reports a dropped record as a `scope_violation` warning and returns false, or returns true when it is in scope. */
export function keepIfInScope(
  providerRecordId: string,
  decoded: DecodedRecordMetadata,
  scope: MemoryScope,
  warnings: MemoryWarning[],
): boolean {
  const violation = findSupermemoryScopeViolation(decoded, scope);
  if (violation === undefined) return true;
  warnings.push({ type: 'scope_violation', providerRecordId, details: violation });
  return false;
}

function withRecordFields(snippet: MemorySnippet, decoded: DecodedRecordMetadata): MemorySnippet {
  if (decoded.scope !== undefined) snippet.scope = decoded.scope;
  if (decoded.source !== undefined) snippet.source = decoded.source;
  if (decoded.metadata !== undefined) snippet.metadata = decoded.metadata;
  if (decoded.summary !== undefined) snippet.summary = decoded.summary;
  return snippet;
}

/** A memory entry (from the memory list or a search hit) as a snippet. */
export function memoryToSnippet(
  entry: Pick<SupermemoryMemoryEntry, 'id'> & { memory: string; createdAt?: string | null; updatedAt?: string | null },
  decoded: DecodedRecordMetadata,
  score?: number,
): MemorySnippet {
  const snippet: MemorySnippet = {
    handle: toSupermemoryHandle({ kind: 'memory', memoryId: entry.id, recordKey: decoded.recordKey }),
    text: entry.memory,
  };
  if (score !== undefined) snippet.score = score;
  if (typeof entry.createdAt === 'string') snippet.createdAt = entry.createdAt;
  if (typeof entry.updatedAt === 'string') snippet.updatedAt = entry.updatedAt;
  return withRecordFields(snippet, decoded);
}

/** A document (captured residue) as a snippet. */
export function documentToSnippet(document: SupermemoryDocument, decoded: DecodedRecordMetadata): MemorySnippet {
  const snippet: MemorySnippet = {
    handle: toSupermemoryHandle({ kind: 'document', documentId: document.id }),
    text: document.content ?? '',
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
  withRecordFields(snippet, decoded);
  if (snippet.summary === undefined && typeof document.summary === 'string') snippet.summary = document.summary;
  return snippet;
}

/** A chunk search hit as a snippet: it carries its document's handle, since a chunk id reaches no endpoint. */
export function chunkToSnippet(documentId: string, text: string, updatedAt: string | null | undefined, decoded: DecodedRecordMetadata, score: number): MemorySnippet {
  const snippet: MemorySnippet = { handle: toSupermemoryHandle({ kind: 'document', documentId }), text, score };
  if (typeof updatedAt === 'string') snippet.updatedAt = updatedAt;
  return withRecordFields(snippet, decoded);
}
