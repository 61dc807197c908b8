import {
  MemoryApiCallError,
  MemoryConflictError,
  MemoryNotFoundError,
  type MemoryCorrectionPatch,
  type MemoryCorrectionResult,
  type MemoryForgetResult,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import {
  emptyResponseSchema,
  forgetMemoryResponseSchema,
  maximumProviderPageSize,
  memoryListResponseSchema,
  updateDocumentResponseSchema,
  updateMemoryResponseSchema,
} from './supermemory-api-schemas';
import { createDocumentRelation } from './supermemory-document-relation';
import { readSupermemoryHandle, toSupermemoryHandle } from './supermemory-handle';
import { lookUpMemory } from './supermemory-memory-lookup';
import { findSupermemoryScopeViolation } from './supermemory-record-mapping';
import { decodeRecordMetadata, encodeRecordMetadata, metadataKeys } from './supermemory-record-metadata';
import { listMemories } from './supermemory-raw-endpoints';
import { readDocumentInScope } from './supermemory-read-operations';

async function ignoreNotFound(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!MemoryNotFoundError.isInstance(error)) throw error;
  }
}

async function forgetMemory(
  context: SupermemoryAdapterContext,
  memoryId: string,
  containerTag: string,
  usage: MemoryUsage[],
): Promise<void> {
  await ignoreNotFound(async () => {
    const { usage: callUsage } = await context.call(
      { operation: 'forget', resourceId: memoryId },
      forgetMemoryResponseSchema,
      (options) => context.client.memories.forget({ containerTag, id: memoryId, reason: 'forgotten through memplane' }, options),
    );
    usage.push(callUsage);
  });
}

/** The most memory-list pages read to find what was extracted from a document (2,000 entries). */
const maximumDerivedPages = 20;

/**
 * Forgets the memory entries extracted from a captured document. Nothing documents that they
 * carry the document's metadata, so they are found through the relation itself: the memory
 * list of the container, newest first, read down to the document's creation (nothing older
 * can come from it), forgetting every entry that names the document among its sources or
 * carries its record key. When that range is longer than 2,000 entries, or the list does not
 * come newest first (its `order` is undocumented, and an ignored one would end the scan at the
 * first older entry), this throws a `MemoryApiCallError` before the document is deleted:
 * never a silent success while extracted memories stay.
 */
async function forgetDerivedMemories(
  context: SupermemoryAdapterContext,
  scope: MemoryScope,
  document: { id: string; createdAt: string },
  recordKey: string | undefined,
  usage: MemoryUsage[],
): Promise<void> {
  const containerTag = context.containerTagOf(scope.companyId);
  const since = Date.parse(document.createdAt);
  const derived: string[] = [];
  // The scan stops at the first entry older than the document, which is only safe when the
  // list really comes newest first: `order` of the undocumented memory list may be ignored.
  // An entry newer than the one before it proves it is not; a run of equal timestamps proves
  // nothing, so the scan stops early only once it has seen the timestamps go down.
  let previous: number | undefined;
  let provenNewestFirst = false;
  for (let page = 1; ; page += 1) {
    if (page > maximumDerivedPages) {
      throw new MemoryApiCallError({
        message: `Could not read every memory entry created since document ${document.id} (more than ${maximumDerivedPages * maximumProviderPageSize}); the document was kept, so what was extracted from it is not left behind.`,
        isRetryable: false,
      });
    }
    const { value, usage: callUsage } = await context.call({ operation: 'forget (extracted memories)' }, memoryListResponseSchema, (options) =>
      listMemories(context.client, { containerTags: [containerTag], page, limit: maximumProviderPageSize, sort: 'createdAt', order: 'desc' }, options),
    );
    usage.push(callUsage);
    let reachedOlder = false;
    for (const entry of value.memoryEntries) {
      const createdAt = Date.parse(entry.createdAt);
      if (Number.isNaN(createdAt) || (previous !== undefined && createdAt > previous)) {
        throw new MemoryApiCallError({
          message: `Supermemory listed memory entries out of newest-first order (or without a readable createdAt) while forgetting what was extracted from document ${document.id}, so they cannot all be proven found; the document was kept.`,
          isRetryable: false,
        });
      }
      if (previous !== undefined && createdAt < previous) provenNewestFirst = true;
      previous = createdAt;
      if (createdAt < since) reachedOlder = true;
      const related = entry.documentIds?.includes(document.id) === true || (recordKey !== undefined && entry.metadata?.[metadataKeys.recordKey] === recordKey);
      if (related && entry.isForgotten !== true) derived.push(entry.id);
    }
    if ((reachedOlder && provenNewestFirst) || page >= value.pagination.totalPages || value.memoryEntries.length === 0) break;
  }
  for (const memoryId of derived) await forgetMemory(context, memoryId, containerTag, usage);
}

/**
 * `forget`. A memory handle: the entry is read first (scope check, and a superseded version
 * resolves to the record's latest one), then `memories.forget` soft-deletes it; Supermemory
 * keeps it flagged `isForgotten` and never returns it in search, and the adapter drops it from
 * list and get. A document handle: `documents.get` (scope check), then `documents.delete`
 * (permanent), and the memories extracted from it are forgotten too, because whether
 * Supermemory removes them with the document is not documented. Missing, foreign and
 * already forgotten handles are skipped without a word.
 */
export async function forgetSupermemoryRecords(
  context: SupermemoryAdapterContext,
  handles: MemoryRecordHandle[],
  scope: MemoryScope,
): Promise<MemoryForgetResult> {
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  const containerTag = context.containerTagOf(scope.companyId);
  for (const handle of handles) {
    const reference = readSupermemoryHandle(handle);
    if (reference === undefined) {
      warnings.push({ type: 'other', message: `Skipped handle ${handle.providerRecordId}: it is not a Supermemory handle.` });
      continue;
    }
    if (reference.kind === 'document') {
      const document = await readDocumentInScope(context, reference.documentId, handle.providerRecordId, scope, usage);
      if (document === undefined) continue;
      // While Supermemory still processes the document, memories can be extracted after the scan
      // below and would outlive the forget; nothing is deleted until its extraction has ended.
      if (document.status !== 'done' && document.status !== 'failed') {
        throw new MemoryConflictError({
          message: `Document ${handle.providerRecordId} is still being processed (${document.status}); memories extracted after a forget now would stay. Nothing was deleted: forget it again once its extraction job has finished.`,
        });
      }
      // Extracted memories first: if that fails, the document (and the relation) is still there to retry.
      await forgetDerivedMemories(context, scope, document, decodeRecordMetadata(document.metadata, []).recordKey, usage);
      await ignoreNotFound(async () => {
        const { usage: callUsage } = await context.call(
          { operation: 'forget', resourceId: handle.providerRecordId },
          emptyResponseSchema,
          (options) => context.client.documents.delete(reference.documentId, options),
        );
        usage.push(callUsage);
      });
      continue;
    }
    const found = await lookUpMemory(context, scope, reference.memoryId, reference.recordKey, usage);
    if (found?.current === undefined) continue;
    const { decoded } = await createDocumentRelation(context, scope.companyId, usage).decode(found.current, []);
    if (findSupermemoryScopeViolation(decoded, scope) !== undefined) continue;
    await forgetMemory(context, found.current.id, containerTag, usage);
  }
  return { usage, warnings };
}

/**
 * `correct`. A memory handle: `memories.updateMemory`, which creates a new version (the old
 * one stays, `isLatest=false`); the result's `record` is the new version and `supersedes` the
 * one it replaced. Text, summary and metadata keys not in the patch carry over; the reason is
 * stored with the new version. A document handle: `documents.update` (a content change makes
 * Supermemory process the document again).
 */
export async function correctSupermemoryRecord(
  context: SupermemoryAdapterContext,
  handle: MemoryRecordHandle,
  patch: MemoryCorrectionPatch,
  scope: MemoryScope,
): Promise<MemoryCorrectionResult> {
  const reference = readSupermemoryHandle(handle);
  const usage: MemoryUsage[] = [];
  if (reference === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  if (reference.kind === 'document') {
    const document = await readDocumentInScope(context, reference.documentId, handle.providerRecordId, scope, usage);
    if (document === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
    const decoded = decodeRecordMetadata(document.metadata, []);
    const metadata = encodeRecordMetadata({
      scope: decoded.scope ?? scope,
      ...(decoded.recordKey === undefined ? {} : { recordKey: decoded.recordKey }),
      origin: 'capture',
      ...(decoded.source === undefined ? {} : { source: decoded.source }),
      metadata: { ...decoded.metadata, ...patch.metadata },
      ...((patch.summary ?? decoded.summary) === undefined ? {} : { summary: patch.summary ?? decoded.summary }),
      ...(patch.reason === undefined ? {} : { correctionReason: patch.reason }),
    });
    const { usage: callUsage } = await context.call(
      { operation: 'correct', resourceId: handle.providerRecordId },
      updateDocumentResponseSchema,
      (options) =>
        context.client.documents.update(
          reference.documentId,
          { metadata, ...(patch.text === undefined ? {} : { content: patch.text }) },
          options,
        ),
    );
    usage.push(callUsage);
    return { record: handle, usage };
  }
  const found = await lookUpMemory(context, scope, reference.memoryId, reference.recordKey, usage);
  const current = found?.current;
  const decoded = current === undefined ? undefined : (await createDocumentRelation(context, scope.companyId, usage).decode(current, [])).decoded;
  if (current === undefined || decoded === undefined || findSupermemoryScopeViolation(decoded, scope) !== undefined) {
    throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  }
  const recordKey = decoded.recordKey ?? reference.recordKey;
  const summary = patch.summary ?? decoded.summary;
  const callerMetadata = patch.metadata === undefined ? decoded.metadata : { ...decoded.metadata, ...patch.metadata };
  const metadata = encodeRecordMetadata({
    scope: decoded.scope ?? scope,
    ...(recordKey === undefined ? {} : { recordKey }),
    origin: decoded.origin === 'capture' ? 'capture' : 'record',
    ...(decoded.source === undefined ? {} : { source: decoded.source }),
    ...(callerMetadata === undefined ? {} : { metadata: callerMetadata }),
    ...(summary === undefined ? {} : { summary }),
    ...(patch.reason === undefined ? {} : { correctionReason: patch.reason }),
  });
  const { value, usage: callUsage } = await context.call(
    { operation: 'correct', resourceId: handle.providerRecordId },
    updateMemoryResponseSchema,
    (options) =>
      context.client.memories.updateMemory(
        {
          containerTag: context.containerTagOf(scope.companyId),
          id: current.id,
          newContent: patch.text ?? current.memory,
          metadata,
        },
        options,
      ),
  );
  usage.push(callUsage);
  return {
    record: toSupermemoryHandle({ kind: 'memory', memoryId: value.id, recordKey }),
    supersedes: toSupermemoryHandle({ kind: 'memory', memoryId: current.id, recordKey }),
    usage,
  };
}
