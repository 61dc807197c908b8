import type { MemoryExtractionJob, MemoryRecordHandle, MemorySnippet } from '@memplane/core';
import { definedFields } from './memory-defined-fields';
import type { LiveRecord, StoredJob } from './memory-store-state';

/** The key of the in-memory adapter. Every handle it issues carries it. */
export const memoryAdapterKey = 'memory';

/** The handle of a stored record. */
export function handleOf(record: { id: string }): MemoryRecordHandle {
  return { providerKey: memoryAdapterKey, providerRecordId: record.id };
}

/** A record as callers see it: a deep copy, so nothing a caller does reaches the store. */
export function toSnippet(record: LiveRecord, score?: number): MemorySnippet {
  const { content } = record;
  return {
    handle: handleOf(record),
    text: content.text,
    ...definedFields({
      score,
      summary: content.summary,
      source: content.source === undefined ? undefined : { ...content.source },
      metadata: content.metadata === undefined ? undefined : structuredClone(content.metadata),
    }),
    scope: { ...record.scope },
    createdAt: record.createdAt,
    updatedAt: content.updatedAt,
  };
}

/** A job as callers see it: a copy without the captured text or internal counters. */
export function toJob(job: StoredJob): MemoryExtractionJob {
  return {
    providerJobId: job.id,
    status: job.status,
    ...definedFields({
      hookKind: job.hookKind,
      source: { ...job.source },
      error: job.error,
      submittedAt: job.submittedAt,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
    }),
  };
}
