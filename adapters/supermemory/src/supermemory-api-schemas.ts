import { handCheckedSchema } from '@memplane/core';
import { z } from 'zod';

/**
 * The parts of Supermemory's responses the adapter reads, kept minimal and lenient about
 * fields it does not use (`.nullish()`, unknown keys allowed). Every response is validated,
 * so a malformed body becomes `MemoryInvalidResponseError` instead of a wrong result.
 */

// A flat object (or null). Checked as a whole rather than key by key: `z.record` cost 65 µs
// per 50-entry page (bench/supermemory-overhead), and the adapter reads every key it uses by
// type anyway (supermemory-record-metadata.ts).
const metadata = z.custom<Record<string, unknown> | null | undefined>(
  (value) => value === null || value === undefined || (typeof value === 'object' && !Array.isArray(value)),
  'must be a flat metadata object or null',
);
const documentStatus = z.enum(['unknown', 'queued', 'extracting', 'chunking', 'embedding', 'indexing', 'done', 'failed']);

/** `POST /v3/documents` (`client.add`): the new document's id and status. */
export const addDocumentResponseSchema = z.object({ id: z.string().min(1), status: z.string() });

/** `GET /v3/documents/{id}` (`documents.get`). */
export const documentResponseSchema = z.object({
  id: z.string().min(1),
  content: z.string().nullish(),
  summary: z.string().nullish(),
  metadata,
  status: documentStatus,
  containerTags: z.array(z.string()).nullish(),
  createdAt: z.string().min(1),
  updatedAt: z.string().min(1),
});

/** `POST /v3/documents/list` (`documents.list`). */
export const documentListResponseSchema = z.object({
  memories: z.array(documentResponseSchema.omit({ content: true })),
  pagination: z.object({ currentPage: z.number(), totalPages: z.number(), totalItems: z.number() }),
});

/** `PATCH /v3/documents/{id}` (`documents.update`). */
export const updateDocumentResponseSchema = z.object({ id: z.string().min(1), status: z.string() });

/** `POST /v4/memories` (raw, through `client.post`): the created entries, in request order. */
export const createMemoriesResponseSchema = z.object({
  documentId: z.string().nullish(),
  memories: z.array(z.object({ id: z.string().min(1), memory: z.string(), createdAt: z.string().nullish() })),
});

/**
 * One entry of `POST /v4/memories/list`. `metadata` may be missing: nothing documents that
 * every entry has the key, and one entry without it must not fail the page (it carries no
 * company marker, so the adapter drops it with a warning unless its source document places
 * it). `documentIds` names the documents an entry came from (the shape Supermemory's own MCP
 * client reads).
 */
export const memoryEntrySchema = z.object({
  id: z.string().min(1),
  memory: z.string(),
  metadata: metadata.optional(),
  documentIds: z.array(z.string()).nullish(),
  version: z.number().nullish(),
  isLatest: z.boolean().nullish(),
  isForgotten: z.boolean().nullish(),
  createdAt: z.string().min(1),
  updatedAt: z.string().nullish(),
});

/** The detailed zod schema of `POST /v4/memories/list`, run for its issues when the fast check fails. */
export const detailedMemoryListResponseSchema = z.object({
  memoryEntries: z.array(memoryEntrySchema),
  pagination: z.object({ currentPage: z.number(), totalPages: z.number(), totalItems: z.number() }),
});

/** The detailed zod schema of `POST /v4/search`, run for its issues when the fast check fails. */
export const detailedSearchResponseSchema = z.object({
  results: z.array(
    z.object({
      id: z.string().min(1),
      memory: z.string().nullish(),
      chunk: z.string().nullish(),
      similarity: z.number(),
      metadata: metadata.optional(),
      updatedAt: z.string().nullish(),
      /** The source documents, with their metadata when the search asked for `include.documents` (SDK `Result.Document`). */
      documents: z.array(z.object({ id: z.string().min(1), metadata: metadata.optional() })).nullish(),
    }),
  ),
  timing: z.number().nullish(),
  total: z.number().nullish(),
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNullish = (value: unknown) => value === null || value === undefined;
const isFiniteNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isNullishString = (value: unknown) => isNullish(value) || typeof value === 'string';
const isNullishNumber = (value: unknown) => isNullish(value) || isFiniteNumber(value);
const isNullishBoolean = (value: unknown) => isNullish(value) || typeof value === 'boolean';
// A missing `metadata` key is accepted like a null one (the entry then has no company marker).
const hasMetadata = (holder: Record<string, unknown>) => isNullish(holder.metadata) || isObject(holder.metadata);
const isNullishStringArray = (value: unknown) => isNullish(value) || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
const isNullishDocumentList = (value: unknown) =>
  isNullish(value) || (Array.isArray(value) && value.every((item) => isObject(item) && isNonEmptyString(item.id) && hasMetadata(item)));
const isNonEmptyString = (value: unknown) => typeof value === 'string' && value !== '';

/** The hand-written check of one memory entry: accepts exactly what `memoryEntrySchema` accepts. */
export function isMemoryEntry(value: unknown): boolean {
  if (!isObject(value)) return false;
  return (
    isNonEmptyString(value.id) &&
    typeof value.memory === 'string' &&
    hasMetadata(value) &&
    isNullishStringArray(value.documentIds) &&
    isNullishNumber(value.version) &&
    isNullishBoolean(value.isLatest) &&
    isNullishBoolean(value.isForgotten) &&
    isNonEmptyString(value.createdAt) &&
    isNullishString(value.updatedAt)
  );
}

/** The hand-written check of a memory list answer. */
export function isMemoryListResponse(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { memoryEntries, pagination } = value;
  if (!isObject(pagination) || !isFiniteNumber(pagination.currentPage) || !isFiniteNumber(pagination.totalPages) || !isFiniteNumber(pagination.totalItems)) {
    return false;
  }
  if (!Array.isArray(memoryEntries)) return false;
  for (const entry of memoryEntries) if (!isMemoryEntry(entry)) return false;
  return true;
}

/** The hand-written check of a search answer. */
export function isSearchResponse(value: unknown): boolean {
  if (!isObject(value) || !isNullishNumber(value.timing) || !isNullishNumber(value.total)) return false;
  const { results } = value;
  if (!Array.isArray(results)) return false;
  for (const result of results) {
    if (!isObject(result) || !isNonEmptyString(result.id) || !isFiniteNumber(result.similarity)) return false;
    if (!isNullishString(result.memory) || !isNullishString(result.chunk) || !isNullishString(result.updatedAt) || !hasMetadata(result) || !isNullishDocumentList(result.documents)) {
      return false;
    }
  }
  return true;
}

/*
 * Lists carry up to 100 entries, and the zod objects cost about a microsecond per entry, so
 * the bodies read on every call are checked by hand first (core `handCheckedSchema`); zod
 * runs only on the error path. `supermemory-api-schemas.test.ts` holds each hand check in
 * agreement with its detailed schema.
 */

/** `POST /v4/memories/list` (raw, through `client.post`). */
export const memoryListResponseSchema = handCheckedSchema(isMemoryListResponse, detailedMemoryListResponseSchema, 'is not a valid Supermemory response');

/** `POST /v4/search` (`client.search`). */
export const searchResponseSchema = handCheckedSchema(isSearchResponse, detailedSearchResponseSchema, 'is not a valid Supermemory response');

/** `DELETE /v4/memories` (`memories.forget`). */
export const forgetMemoryResponseSchema = z.object({ id: z.string().min(1), forgotten: z.boolean() });

/** `PATCH /v4/memories` (`memories.updateMemory`). */
export const updateMemoryResponseSchema = z.object({
  id: z.string().min(1),
  memory: z.string(),
  version: z.number().nullish(),
  parentMemoryId: z.string().nullish(),
});

/** `POST /v4/profile` (`client.profile`). */
export const profileResponseSchema = z.object({
  profile: z.object({ static: z.array(z.string()), dynamic: z.array(z.string()) }),
  searchResults: z.object({ timing: z.number().nullish() }).nullish(),
});

/** `DELETE /v3/documents/{id}` answers 204 with no body. */
export const emptyResponseSchema = z.union([z.null(), z.undefined(), z.literal('')]);

/** A document as the adapter reads it. */
export type SupermemoryDocument = z.output<typeof documentResponseSchema>;
/** A document list row. */
export type SupermemoryDocumentRow = z.output<typeof documentListResponseSchema>['memories'][number];
/** A memory entry as the adapter reads it. */
export type SupermemoryMemoryEntry = z.output<typeof memoryEntrySchema>;
/** The most memories one `POST /v4/memories` call may carry. */
export const maximumMemoriesPerCreate = 100;
/** The longest memory text `POST /v4/memories` accepts. */
export const maximumMemoryLength = 10_000;
/** The largest page of the list endpoints. */
export const maximumProviderPageSize = 100;
