import {
  MemoryNotFoundError,
  type MemoryContextBundle,
  type MemoryQueryRequest,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemorySnippet,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { documentResponseSchema, searchResponseSchema, type SupermemoryDocument } from './supermemory-api-schemas';
import { readSupermemoryHandle } from './supermemory-handle';
import { lookUpMemory } from './supermemory-memory-lookup';
import { createDocumentRelation } from './supermemory-document-relation';
import { chunkToSnippet, documentToSnippet, findSupermemoryScopeViolation, keepIfInScope, memoryToSnippet } from './supermemory-record-mapping';
import {
  decodeRecordMetadata,
  hasPostOnlyConditions,
  matchesMetadataFilter,
  metadataFilterToConditions,
} from './supermemory-record-metadata';
import { scopeToConditions } from './supermemory-scope-mapping';

/**
 * `query`: `client.search` (`POST /v4/search`, memory entries) in the company's container,
 * with the scope fields and the scalar metadata filter values as `filters.AND`. Every hit is
 * then checked again: company, scope and metadata filter (exactly, with deep equality).
 * When the filter has values Supermemory cannot filter on, more hits are asked for, because
 * some are dropped after retrieval.
 */
export async function querySupermemory(
  context: SupermemoryAdapterContext,
  request: MemoryQueryRequest,
): Promise<MemoryContextBundle> {
  const warnings: MemoryWarning[] = [];
  if (request.intent !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'intent', details: 'Supermemory ranks every query the same way.' });
  }
  const topK = request.topK ?? 10;
  const limit = hasPostOnlyConditions(request.metadataFilter) ? Math.min(100, topK * 3) : topK;
  const conditions = [...scopeToConditions(request.scope), ...metadataFilterToConditions(request.metadataFilter)];
  const { value, usage } = await context.call(
    { operation: 'query' },
    searchResponseSchema,
    (options) =>
      context.client.search(
        {
          q: request.query,
          containerTag: context.containerTagOf(request.scope.companyId),
          searchMode: 'memories',
          limit,
          filters: { AND: conditions },
          // The source documents (with their metadata) place entries extracted from a capture.
          include: { documents: true },
          // Supermemory drops hits under 0.5 when no threshold is sent; `query` returns the best topK, so by default none are dropped.
          threshold: context.settings.searchThreshold ?? 0,
        },
        options,
      ),
    (response) => response.timing,
  );
  const snippets: MemorySnippet[] = [];
  const allUsage: MemoryUsage[] = [usage];
  const relation = createDocumentRelation(context, request.scope.companyId, allUsage);
  for (const result of value.results) {
    let decoded = decodeRecordMetadata(result.metadata, warnings);
    let placedBy: string | undefined;
    // Only an entry without a company marker of its own costs a look at its documents.
    if (decoded.scope === undefined) ({ decoded, documentId: placedBy } = await relation.decode(result, warnings));
    if (!keepIfInScope(result.id, decoded, request.scope, warnings)) continue;
    if (!matchesMetadataFilter(decoded.metadata, request.metadataFilter)) continue;
    if (typeof result.memory === 'string') {
      snippets.push(memoryToSnippet({ id: result.id, memory: result.memory, updatedAt: result.updatedAt }, decoded, result.similarity));
      continue;
    }
    if (typeof result.chunk !== 'string') continue;
    // A chunk hit's id is a chunk id, which no memory or document endpoint takes: its handle
    // is its document's, the only one get and forget can use.
    const documentId = placedBy ?? result.documents?.[0]?.id;
    if (documentId === undefined) {
      warnings.push({ type: 'compatibility', feature: 'search', details: `Supermemory returned chunk ${result.id} without its document; it was left out, since no handle could reach it.` });
      continue;
    }
    snippets.push(chunkToSnippet(documentId, result.chunk, result.updatedAt, decoded, result.similarity));
  }
  return { snippets: snippets.slice(0, topK), usage: allUsage, warnings };
}

async function readDocument(
  context: SupermemoryAdapterContext,
  documentId: string,
  providerRecordId: string,
  usage: MemoryUsage[],
): Promise<SupermemoryDocument | undefined> {
  try {
    const { value, usage: callUsage } = await context.call(
      { operation: 'get', resourceId: providerRecordId },
      documentResponseSchema,
      (options) => context.client.documents.get(documentId, options),
    );
    usage.push(callUsage);
    return value;
  } catch (error) {
    if (MemoryNotFoundError.isInstance(error)) return undefined;
    throw error;
  }
}

/** Whether a document belongs to the scope: its container tag and its metadata both say so. */
export function documentInScope(
  context: SupermemoryAdapterContext,
  document: SupermemoryDocument,
  scope: MemoryScope,
  warnings: MemoryWarning[],
): boolean {
  const tags = document.containerTags;
  if (tags !== null && tags !== undefined && !tags.includes(context.containerTagOf(scope.companyId))) return false;
  return findSupermemoryScopeViolation(decodeRecordMetadata(document.metadata, warnings), scope) === undefined;
}

/** Reads a document by id and returns it only when it is in the scope. */
export async function readDocumentInScope(
  context: SupermemoryAdapterContext,
  documentId: string,
  providerRecordId: string,
  scope: MemoryScope,
  usage: MemoryUsage[],
): Promise<SupermemoryDocument | undefined> {
  const document = await readDocument(context, documentId, providerRecordId, usage);
  if (document === undefined) return undefined;
  return documentInScope(context, document, scope, []) ? document : undefined;
}

/**
 * `get`: `documents.get` for a document handle; for a memory handle, the memory-entry read
 * (the memory list filtered on the record key). `documents.get` is not scoped by container,
 * so the document's container tag and company marker are checked. Missing, forgotten and
 * out-of-scope records read as null.
 */
export async function getSupermemoryRecord(
  context: SupermemoryAdapterContext,
  handle: MemoryRecordHandle,
  scope: MemoryScope,
): Promise<MemorySnippet | null> {
  const reference = readSupermemoryHandle(handle);
  if (reference === undefined) return null;
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  if (reference.kind === 'document') {
    const document = await readDocumentInScope(context, reference.documentId, handle.providerRecordId, scope, usage);
    return document === undefined ? null : documentToSnippet(document, decodeRecordMetadata(document.metadata, warnings));
  }
  const found = await lookUpMemory(context, scope, reference.memoryId, reference.recordKey, usage);
  if (found?.current === undefined) return null;
  const { decoded } = await createDocumentRelation(context, scope.companyId, usage).decode(found.current, warnings);
  if (findSupermemoryScopeViolation(decoded, scope) !== undefined) return null;
  return memoryToSnippet(found.current, decoded);
}
