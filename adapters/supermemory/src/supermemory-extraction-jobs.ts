import {
  InvalidCursorError,
  MemoryNotFoundError,
  type CursorBinding,
  type MemoryExtractionJob,
  type MemoryExtractionJobPage,
  type MemoryExtractionJobResult,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { documentListResponseSchema, documentResponseSchema, type SupermemoryDocumentRow } from './supermemory-api-schemas';
import { readSupermemoryJobId, toSupermemoryJobId } from './supermemory-handle';
import { mapDocumentStatus } from './supermemory-job-status';
import { findSupermemoryScopeViolation } from './supermemory-record-mapping';
import { decodeRecordMetadata, metadataKeys } from './supermemory-record-metadata';
import { scopeToConditions } from './supermemory-scope-mapping';

const jobPageSize = 50;
const positionSchema = z.strictObject({ page: z.number().int().positive() });
const hookKinds = new Set(['pre_run_hydrate', 'post_run_capture', 'issue_comment_capture', 'issue_document_capture', 'manual_capture']);

/**
 * A captured document as an extraction job. The job id is rebuilt from the document (its id,
 * the submission time the capture stored in `mp_submittedAt`, the container tag), so a listed
 * job has the id the capture returned. Supermemory has no job timestamps beyond the document's own.
 */
function toJob(context: SupermemoryAdapterContext, containerTag: string, document: SupermemoryDocumentRow, warnings: MemoryWarning[]): MemoryExtractionJob {
  const decoded = decodeRecordMetadata(document.metadata, warnings);
  const status = mapDocumentStatus(document.status);
  const submittedAtMs = decoded.submittedAtMs ?? (Date.parse(document.createdAt) || 0);
  const job: MemoryExtractionJob = {
    providerJobId: toSupermemoryJobId(document.id, submittedAtMs, context.jobs.sign(containerTag, document.id, submittedAtMs)),
    status,
    submittedAt: new Date(submittedAtMs).toISOString(),
  };
  if (decoded.source !== undefined) job.source = decoded.source;
  if (decoded.hookKind !== undefined && hookKinds.has(decoded.hookKind)) job.hookKind = decoded.hookKind as MemoryExtractionJob['hookKind'];
  if (status === 'succeeded' || status === 'failed') job.finishedAt = document.updatedAt;
  if (status === 'failed') job.error = 'Supermemory could not process the document.';
  return job;
}

/**
 * `getExtractionJob`: `documents.get` on the captured document. `documents.get` is not scoped by
 * container, so a document of another company (or not made by a capture) reads as null. A 404
 * within `extractionNotFoundGraceMs` of the capture reads as `queued`, because Supermemory can
 * answer 404 right after `add` before the document is visible.
 */
export async function getSupermemoryExtractionJob(
  context: SupermemoryAdapterContext,
  providerJobId: string,
  scope: MemoryScope,
): Promise<MemoryExtractionJobResult> {
  const { documentId, submittedAtMs, signature } = readSupermemoryJobId(providerJobId);
  const containerTag = context.containerTagOf(scope.companyId);
  try {
    const { value, usage } = await context.call(
      { operation: 'getExtractionJob', resourceId: providerJobId },
      documentResponseSchema,
      (options) => context.client.documents.get(documentId, options),
    );
    const decoded = decodeRecordMetadata(value.metadata, []);
    const tags = value.containerTags;
    const inContainer = tags === null || tags === undefined || tags.includes(containerTag);
    if (!inContainer || decoded.origin !== 'capture' || findSupermemoryScopeViolation(decoded, scope) !== undefined) {
      return { job: null, usage: [usage] };
    }
    return { job: { ...toJob(context, containerTag, value, []), providerJobId }, usage: [usage] };
  } catch (error) {
    if (!MemoryNotFoundError.isInstance(error)) throw error;
    if (submittedAtMs === undefined || !context.jobs.verify(containerTag, documentId, submittedAtMs, signature)) return { job: null };
    const age = context.now() - submittedAtMs;
    if (age < 0 || age > context.settings.extractionNotFoundGraceMs) return { job: null };
    return { job: { providerJobId, status: 'queued', submittedAt: new Date(submittedAtMs).toISOString() } };
  }
}

/**
 * `listExtractionJobs`: the captured documents of the company's container (`documents.list`,
 * filtered on the scope and on the adapter's `mp_origin=capture` marker), oldest first so later captures do not shift pages, each
 * with its processing status: queued, running, succeeded and failed jobs alike.
 */
export async function listSupermemoryExtractionJobs(
  context: SupermemoryAdapterContext,
  scope: MemoryScope,
  cursor: string | undefined,
): Promise<MemoryExtractionJobPage> {
  const binding: CursorBinding = { scope, listing: 'extraction-jobs' };
  let page = 1;
  if (cursor !== undefined) {
    const position = positionSchema.safeParse(context.cursors.decode(cursor, binding));
    if (!position.success) throw new InvalidCursorError({ reason: 'malformed', cause: position.error });
    page = position.data.page;
  }
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  const conditions = [...scopeToConditions(scope), { key: metadataKeys.origin, value: 'capture' }];
  const containerTag = context.containerTagOf(scope.companyId);
  const { value, usage: callUsage } = await context.call({ operation: 'listExtractionJobs' }, documentListResponseSchema, (options) =>
    context.client.documents.list(
      {
        containerTags: [containerTag],
        filters: { AND: conditions },
        page,
        limit: jobPageSize,
        sort: 'createdAt',
        order: 'asc',
      },
      options,
    ),
  );
  usage.push(callUsage);
  const items = value.memories
    .filter((document) => {
      const decoded = decodeRecordMetadata(document.metadata, warnings);
      if (decoded.origin !== 'capture') return false;
      const violation = findSupermemoryScopeViolation(decoded, scope);
      if (violation !== undefined) warnings.push({ type: 'scope_violation', providerRecordId: `doc:${document.id}`, details: violation });
      return violation === undefined;
    })
    .map((document) => toJob(context, containerTag, document, warnings));
  const result: MemoryExtractionJobPage = { items, usage, warnings };
  if (page < value.pagination.totalPages) result.nextCursor = context.cursors.encode({ page: page + 1 }, binding);
  return result;
}
