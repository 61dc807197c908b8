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

/** One entry of `POST /v4/memories/list`. */
export const memoryEntrySchema = z.object({
  id: z.string().min(1),
  memory: z.string(),
  metadata,
  version: z.number().nullish(),
  isLatest: z.boolean().nullish(),
  isForgotten: z.boolean().nullish(),
  createdAt: z.string().min(1),
  updatedAt: z.string().nullish(),
});

/** `POST /v4/memories/list` (raw, through `client.post`). */
export const memoryListResponseSchema = z.object({
  memoryEntries: z.array(memoryEntrySchema),
  pagination: z.object({ currentPage: z.number(), totalPages: z.number(), totalItems: z.number() }),
});

/** `POST /v4/search` (`client.search`). */
export const searchResponseSchema = z.object({
  results: z.array(
    z.object({
      id: z.string().min(1),
      memory: z.string().nullish(),
      chunk: z.string().nullish(),
      similarity: z.number(),
      metadata,
      updatedAt: z.string().nullish(),
    }),
  ),
  timing: z.number().nullish(),
  total: z.number().nullish(),
});

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
