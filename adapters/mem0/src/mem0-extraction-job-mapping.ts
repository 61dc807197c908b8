import {
  memorySourceRefSchema,
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
 * and `FAILED`; it has no cancellation, so `cancelled` never appears.
 */
export function toJobStatus(status: string): MemoryExtractionJobStatus {
  return statuses[status] ?? 'queued';
}

/** The add request an event keeps, when it is an extracting add of this adapter's shape. */
export function readEventPayload(event: Mem0Event): Mem0EventPayload | undefined {
  if (event.eventType !== 'ADD' || event.payload === null || event.payload === undefined) return undefined;
  const parsed = mem0EventPayloadSchema.safeParse(event.payload);
  if (!parsed.success || parsed.data.infer === false) return undefined;
  return parsed.data;
}

/**
 * Whether an event is an extraction job of the scope: an `ADD` with `infer` on, whose
 * original payload has the company's `app_id` and scope metadata that matches. mem0 lists
 * every event of the project, so this check is what keeps other companies' jobs out.
 */
export function isJobInScope(event: Mem0Event, scope: MemoryScope): boolean {
  const payload = readEventPayload(event);
  if (payload === undefined || payload.appId !== scope.companyId) return false;
  const metadata = payload.metadata ?? {};
  const storedCompany = metadata[mem0ScopeMetadataKeys.companyId];
  if (storedCompany !== undefined && storedCompany !== scope.companyId) return false;
  return scopeMatches(fromMem0Scope(payload.appId, metadata), scope);
}

function describeError(error: unknown): string {
  if (typeof error === 'string' && error.trim() !== '') return error;
  if (error !== null && error !== undefined && typeof error === 'object') return JSON.stringify(error);
  return 'mem0 reported the extraction event as FAILED without a reason.';
}

/** Maps a mem0 event to an extraction job, with the source and hook kind its payload kept. */
export function toExtractionJob(event: Mem0Event): MemoryExtractionJob {
  const status = toJobStatus(event.status);
  const job: MemoryExtractionJob = { providerJobId: event.id, status };
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
