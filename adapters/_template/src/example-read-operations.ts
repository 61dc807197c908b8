import {
  InvalidCursorError,
  MemoryNotFoundError,
  type CursorBinding,
  type MemoryContextBundle,
  type MemoryListPage,
  type MemoryListRequest,
  type MemoryQueryRequest,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import type { ExampleAdapterContext } from './example-adapter-context';
import {
  exampleListRecordsResponseSchema,
  exampleRecordResponseSchema,
  exampleSearchResponseSchema,
  type ExampleFilters,
} from './example-api-schemas';
import { readRecordId } from './example-handle';
import { findExampleScopeViolation, keepInScope, toSnippet } from './example-record-mapping';
import { toExampleScope } from './example-scope-mapping';

const cursorPositionSchema = z.strictObject({ pageToken: z.string().min(1) });

function toFilters(
  scope: MemoryScope,
  metadataFilter: Record<string, unknown> | undefined,
): { tenant: string; filters: ExampleFilters } {
  const { tenant, labels } = toExampleScope(scope);
  return { tenant, filters: metadataFilter === undefined ? { labels } : { labels, metadata: metadataFilter } };
}

/** `query`: `POST /v1/search` filtered by tenant, scope labels and metadata. */
export async function queryExampleRecords(
  context: ExampleAdapterContext,
  request: MemoryQueryRequest,
): Promise<MemoryContextBundle> {
  const warnings: MemoryWarning[] = [];
  if (request.intent !== undefined) {
    warnings.push({
      type: 'unsupported',
      feature: 'intent',
      details: 'The Example API ranks every query the same way.',
    });
  }
  const { tenant, filters } = toFilters(request.scope, request.metadataFilter);
  const { value, usage } = await context.call({ operation: 'query' }, exampleSearchResponseSchema, (signal) =>
    context.client.search({ tenant, query: request.query, top_k: request.topK ?? 10, filters }, signal),
  );
  const snippets = keepInScope(value.results, request.scope, warnings).map((result) =>
    toSnippet(result.record, result.score),
  );
  return { snippets, usage: [usage], warnings };
}

function decodePageToken(context: ExampleAdapterContext, cursor: string, binding: CursorBinding): string {
  const position = cursorPositionSchema.safeParse(context.cursors.decode(cursor, binding));
  if (!position.success) throw new InvalidCursorError({ reason: 'malformed', cause: position.error });
  return position.data.pageToken;
}

/**
 * `list`: one keyset page of `GET /v1/records`. The API's page token travels inside a
 * signed core cursor bound to the scope and the metadata filter, so a cursor that was
 * tampered with, or reused with another scope or filter, is refused before any call.
 */
export async function listExampleRecords(
  context: ExampleAdapterContext,
  request: MemoryListRequest,
): Promise<MemoryListPage> {
  const binding: CursorBinding = { scope: request.scope, listing: 'records', filter: request.metadataFilter ?? null };
  const pageToken = request.cursor === undefined ? undefined : decodePageToken(context, request.cursor, binding);
  const { tenant, filters } = toFilters(request.scope, request.metadataFilter);
  const { value, usage } = await context.call({ operation: 'list' }, exampleListRecordsResponseSchema, (signal) =>
    context.client.listRecords(
      { tenant, filters: JSON.stringify(filters), page_token: pageToken, page_size: request.limit ?? 50 },
      signal,
    ),
  );
  const warnings: MemoryWarning[] = [];
  const items = keepInScope(
    value.records.map((record) => ({ record })),
    request.scope,
    warnings,
  ).map(({ record }) => toSnippet(record));
  const page: MemoryListPage = { items, usage: [usage], warnings };
  if (value.next_page_token !== null)
    page.nextCursor = context.cursors.encode({ pageToken: value.next_page_token }, binding);
  return page;
}

/** `get`: `GET /v1/records/{id}`. A missing record, or one outside the scope, reads as null. */
export async function getExampleRecord(
  context: ExampleAdapterContext,
  handle: MemoryRecordHandle,
  scope: MemoryScope,
): Promise<MemorySnippet | null> {
  const recordId = readRecordId(handle);
  if (recordId === undefined) return null;
  try {
    const { value } = await context.call(
      { operation: 'get', resourceId: handle.providerRecordId },
      exampleRecordResponseSchema,
      (signal) => context.client.getRecord(recordId, scope.companyId, signal),
    );
    return findExampleScopeViolation(value.record, scope) === undefined ? toSnippet(value.record) : null;
  } catch (error) {
    if (MemoryNotFoundError.isInstance(error)) return null;
    throw error;
  }
}
