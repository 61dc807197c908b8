import {
  MemoryNotFoundError,
  normalizeScope,
  type MemoryCorrectionPatch,
  type MemoryCorrectionResult,
  type MemoryForgetResult,
  type MemoryListPage,
  type MemoryListRequest,
  type MemoryProfile,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryScope,
  type MemorySnippet,
} from '@memplane/core';
import { readKeysetPage } from './memory-keyset-page';
import { matchesMetadataFilter } from './memory-metadata-filter';
import type { MemoryAdapterContext } from './memory-settings';
import { handleOf, toSnippet } from './memory-snippet';
import { isVisible, type LiveRecord } from './memory-store-state';

/** Records per page of `list` when the request sets no limit. */
export const defaultListLimit = 50;

/** The `metadata.kind` values `profile` collects. */
export const profileKinds: ReadonlySet<string> = new Set(['profile', 'preference', 'goal', 'constraint']);

/** How many recent records `profile` falls back to when the scope has none of {@link profileKinds}. */
export const profileFallbackSize = 10;

/**
 * `upsertRecords`: writes the records in request order. A record whose text is identical to a
 * live record of the same scope updates that record (see `MemoryStoreState.writeRecord`) and
 * its handle is returned in place of a new one.
 */
export function upsertRecords(context: MemoryAdapterContext, request: MemoryRecordWriteRequest): MemoryRecordWriteResult {
  const scope = normalizeScope(request.scope);
  const at = context.now();
  const records = request.records.map((input) =>
    handleOf(
      context.state.writeRecord(
        { scope, text: input.text, summary: input.summary, metadata: input.metadata, source: request.source },
        at,
      ),
    ),
  );
  return { records };
}

/** `list`: the visible records in creation order, by keyset pages. */
export function list(context: MemoryAdapterContext, request: MemoryListRequest): MemoryListPage {
  const page = readKeysetPage({
    all: context.state.records,
    include: (record): record is LiveRecord =>
      isVisible(record, request.scope) && matchesMetadataFilter(record.content.metadata, request.metadataFilter),
    codec: context.codec,
    binding: { scope: request.scope, listing: 'records', filter: request.metadataFilter },
    cursor: request.cursor,
    limit: request.limit ?? defaultListLimit,
  });
  const items = page.items.map((record) => toSnippet(record));
  return { items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
}

/** `get`: the record when it is live and visible in the scope, else null. */
export function get(context: MemoryAdapterContext, handle: MemoryRecordHandle, scope: MemoryScope): MemorySnippet | null {
  const record = context.state.findRecord(handle.providerRecordId, scope);
  return record === undefined ? null : toSnippet(record);
}

/** `forget`: tombstones every visible record among the handles; anything else is a no-op. */
export function forget(context: MemoryAdapterContext, handles: MemoryRecordHandle[], scope: MemoryScope): MemoryForgetResult {
  const at = context.now();
  for (const handle of handles) {
    const record = context.state.findRecord(handle.providerRecordId, scope);
    if (record !== undefined) context.state.forgetRecord(record, at);
  }
  return {};
}

/** `correct`: a new version of the same record; the old one is kept in its history. */
export function correct(
  context: MemoryAdapterContext,
  handle: MemoryRecordHandle,
  patch: MemoryCorrectionPatch,
  scope: MemoryScope,
): MemoryCorrectionResult {
  const record = context.state.findRecord(handle.providerRecordId, scope);
  if (record === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  context.state.correctRecord(record, patch, context.now());
  return { record: handleOf(record) };
}

/**
 * `profile`: the visible records whose `metadata.kind` is profile, preference, goal or
 * constraint, oldest first; when there are none, the 10 most recent records. The summary is
 * one `- text` line per record, with line breaks inside a text folded into spaces.
 */
export function profile(context: MemoryAdapterContext, scope: MemoryScope): MemoryProfile {
  const visible = context.state.visibleRecords(scope);
  const kinds = visible.filter((record) => {
    const kind = record.content.metadata?.kind;
    return typeof kind === 'string' && profileKinds.has(kind);
  });
  const chosen = kinds.length > 0 ? kinds : visible.slice(-profileFallbackSize);
  return {
    summary: chosen.map((record) => `- ${record.content.text.replace(/\s+/gu, ' ').trim()}`).join('\n'),
    items: chosen.map((record) => toSnippet(record)),
  };
}
