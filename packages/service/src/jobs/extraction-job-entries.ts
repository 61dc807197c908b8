import type { MemoryExtractionJob, MemoryHookKind, MemoryScope, MemorySourceRef } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import type { MemoryExtractionJobEntry } from '../store/memory-service-records';

/** Where a provider job was seen: the binding, the scope and what caused it. */
export interface JobOrigin {
  binding: MemoryBinding;
  scope: MemoryScope;
  operationId?: string;
  hookKind?: MemoryHookKind;
  source?: MemorySourceRef;
  retryCount?: number;
}

/**
 * The store entry of a provider job. New entries get a fresh id; for known jobs the store keeps
 * the first id, operation, source, scope and creation time and takes the rest from here.
 */
export function toJobEntry(
  job: MemoryExtractionJob,
  origin: JobOrigin,
  now: string,
  createId: (prefix: string) => string,
): MemoryExtractionJobEntry {
  const hookKind = job.hookKind ?? origin.hookKind;
  const source = job.source ?? origin.source;
  return {
    id: createId('job'),
    companyId: origin.binding.companyId,
    bindingId: origin.binding.id,
    bindingKey: origin.binding.key,
    providerJobId: job.providerJobId,
    status: job.status,
    scope: origin.scope,
    retryCount: origin.retryCount ?? 0,
    createdAt: now,
    updatedAt: now,
    ...(origin.operationId === undefined ? {} : { operationId: origin.operationId }),
    ...(hookKind === undefined ? {} : { hookKind }),
    ...(source === undefined ? {} : { source }),
    ...(job.error === undefined ? {} : { error: job.error }),
    ...(job.submittedAt === undefined ? {} : { submittedAt: job.submittedAt }),
    ...(job.startedAt === undefined ? {} : { startedAt: job.startedAt }),
    ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
  };
}

/** The entry after a poll: the provider's view of status, error and timestamps over the known entry. */
export function refreshedJobEntry(known: MemoryExtractionJobEntry, job: MemoryExtractionJob, now: string): MemoryExtractionJobEntry {
  const { error: _previousError, finishedAt: _previousFinish, ...rest } = known;
  return {
    ...rest,
    status: job.status,
    updatedAt: now,
    ...(job.error === undefined ? {} : { error: job.error }),
    ...(job.submittedAt === undefined ? {} : { submittedAt: job.submittedAt }),
    ...(job.startedAt === undefined ? {} : { startedAt: job.startedAt }),
    ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
  };
}
