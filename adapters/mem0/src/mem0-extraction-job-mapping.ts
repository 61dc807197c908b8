import {
  memorySourceRefSchema,
  normalizeScope,
  scopeMatches,
  type MemoryExtractionJob,
  type MemoryExtractionJobStatus,
  type MemoryHookKind,
  type MemoryScope,
  type MemorySourceRef,
} from '@memplane/core';
import { mem0EventPayloadSchema, type Mem0Event, type Mem0EventPayload } from './mem0-api-schemas';
import { readStoredMetadata } from './mem0-metadata';
import { fromMem0Scope, mem0ScopeMetadataKeys } from './mem0-scope-mapping';

const statuses: Record<string, MemoryExtractionJobStatus> = {
  PENDING: 'queued',
  RUNNING: 'running',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
};

/**
 * Maps a mem0 event status to a job status. mem0 shows `PENDING`, `RUNNING`, `SUCCEEDED`
 * and `FAILED`; it has no cancellation, so `cancelled` never appears. A status the adapter
 * does not know proves neither success nor failure, so it reads as `running` (not final).
 */
export function toJobStatus(status: string): MemoryExtractionJobStatus {
  // Only the table's own keys: a status such as `__proto__` from the API must not reach the object's prototype.
  return Object.hasOwn(statuses, status) ? (statuses[status] as MemoryExtractionJobStatus) : 'running';
}

/** The add request an event keeps, when it is an extracting add of this adapter's shape. */
export function readEventPayload(event: Mem0Event): Mem0EventPayload | undefined {
  if (event.eventType !== 'ADD' || event.payload === null || event.payload === undefined) return undefined;
  const parsed = mem0EventPayloadSchema.safeParse(event.payload);
  if (!parsed.success || parsed.data.infer === false) return undefined;
  return parsed.data;
}

/**
 * The scope an event's echoed request proves: its `app_id` and scope metadata, when mem0
 * echoed both and they agree on the company. Undefined when it proves nothing (no echo).
 */
export function readPayloadScope(payload: Mem0EventPayload | undefined): MemoryScope | undefined {
  const metadata = payload?.metadata;
  if (payload === undefined || typeof payload.appId !== 'string' || metadata === null || metadata === undefined) return undefined;
  if (metadata[mem0ScopeMetadataKeys.companyId] !== payload.appId) return undefined;
  return fromMem0Scope(payload.appId, metadata);
}

/**
 * Whether the event of a job id (signed for the company of `scope`, with the digest of
 * the capture's scope) is a job of `scope`. The signature already proved the company; a
 * scope below the company is proved by the capture's own scope (same digest) or by the
 * request mem0 echoed. An echo that names another company or another scope than the one
 * signed fails closed, and so does a narrower scope that nothing proves.
 */
export function isJobInScope(event: Mem0Event, signed: { scopeDigest: string }, scope: MemoryScope, digest: (scope: MemoryScope) => string): boolean {
  const payload = readEventPayload(event);
  if (payload !== undefined && typeof payload.appId === 'string' && payload.appId !== scope.companyId) return false;
  const storedCompany = payload?.metadata?.[mem0ScopeMetadataKeys.companyId];
  if (storedCompany !== undefined && storedCompany !== scope.companyId) return false;
  const echoed = readPayloadScope(payload);
  if (echoed !== undefined) return digest(echoed) === signed.scopeDigest && scopeMatches(echoed, scope);
  return digest(scope) === signed.scopeDigest || Object.keys(normalizeScope(scope)).length === 1;
}

function describeError(error: unknown): string {
  if (typeof error === 'string' && error.trim() !== '') return error;
  if (error !== null && error !== undefined && typeof error === 'object') return JSON.stringify(error);
  return 'mem0 reported the extraction event as FAILED without a reason.';
}

/** Maps a mem0 event to an extraction job, with the source and hook kind its payload kept (when mem0 echoed them). */
export function toExtractionJob(event: Mem0Event, jobId: string): MemoryExtractionJob {
  const status = toJobStatus(event.status);
  const job: MemoryExtractionJob = { providerJobId: jobId, status };
  if (typeof event.createdAt === 'string') job.submittedAt = event.createdAt;
  if (typeof event.startedAt === 'string') job.startedAt = event.startedAt;
  if (status === 'succeeded' || status === 'failed') {
    const finishedAt = event.completedAt ?? event.startedAt ?? event.createdAt;
    if (typeof finishedAt === 'string') job.finishedAt = finishedAt;
  }
  if (status === 'failed') job.error = describeError(event.error);
  const stored = readStoredMetadata(readEventPayload(event)?.metadata ?? {});
  if (memorySourceRefSchema.safeParse(stored.source).success) job.source = stored.source as MemorySourceRef;
  const hookKind = (stored.hook as { hookKind?: unknown } | undefined)?.hookKind;
  if (typeof hookKind === 'string') job.hookKind = hookKind as MemoryHookKind;
  return job;
}
