import {
  finalExtractionJobStatuses,
  MemoryConflictError,
  MemoryNotFoundError,
  scopeMatches,
  type MemoryExtractionJobPage,
  type MemoryExtractionJobResult,
  type MemoryExtractionRetryResult,
  type MemoryScope,
} from '@memplane/core';
import { extractionFailureInForce } from './memory-faults';
import { readKeysetPage } from './memory-keyset-page';
import type { MemoryAdapterContext } from './memory-settings';
import { toJob } from './memory-snippet';
import type { StoredJob } from './memory-store-state';

/** Jobs per page of `listExtractionJobs`. */
export const extractionJobPageSize = 50;

/** Fragments shorter than this (after trimming) are not worth a record. */
const minimumStatementLength = 3;

/** Why a job fails under the `extraction_failure` fault. */
const injectedFailureMessage = 'Extraction failed: the extraction_failure fault was in force.';

/**
 * The deterministic "extraction" of the in-memory adapter: the text split into sentences at
 * `.`, `!` or `?` followed by whitespace (the mark stays with its sentence) and at line
 * breaks, each trimmed, fragments under 3 characters dropped, repeats dropped.
 */
export function extractStatements(text: string): string[] {
  const statements = text
    .split(/(?<=[.!?])\s+|[\r\n]+/u)
    .map((fragment) => fragment.trim())
    .filter((fragment) => fragment.length >= minimumStatementLength);
  return [...new Set(statements)];
}

/**
 * Advances a job by one poll. Every poll before the `extractionPollsToFinish`-th moves it to
 * `running`; that poll extracts its records and moves it to `succeeded`. When the
 * `extraction_failure` fault is in force at the poll, or was at submission or retry, the job
 * moves to `failed` instead, without writing anything. Final jobs do not change.
 */
function advanceJob(context: MemoryAdapterContext, job: StoredJob): void {
  if (finalExtractionJobStatuses.includes(job.status)) return;
  const at = context.now();
  job.polls += 1;
  job.startedAt ??= at;
  if (job.failOnRun || extractionFailureInForce(context.faults)) {
    job.status = 'failed';
    job.error = injectedFailureMessage;
    job.finishedAt = at;
    return;
  }
  if (job.polls < context.extractionPollsToFinish) {
    job.status = 'running';
    return;
  }
  for (const text of extractStatements(job.text)) {
    context.state.writeRecord(
      { scope: job.scope, text, source: job.source, metadata: { ...job.metadata, extractionJobId: job.id } },
      at,
    );
  }
  job.status = 'succeeded';
  job.finishedAt = at;
}

/** `getExtractionJob`: reading a job is what advances it, so polling drives the lifecycle. */
export function getExtractionJob(
  context: MemoryAdapterContext,
  providerJobId: string,
  scope: MemoryScope,
): MemoryExtractionJobResult {
  const job = context.state.findJob(providerJobId, scope);
  if (job === undefined) return { job: null };
  advanceJob(context, job);
  return { job: toJob(job) };
}

/** `listExtractionJobs`: the jobs of the scope in submission order, 50 a page. Listing never advances a job. */
export function listExtractionJobs(
  context: MemoryAdapterContext,
  scope: MemoryScope,
  cursor: string | undefined,
): MemoryExtractionJobPage {
  const page = readKeysetPage({
    all: context.state.jobs,
    include: (job): job is StoredJob => scopeMatches(job.scope, scope),
    codec: context.codec,
    binding: { scope, listing: 'extraction-jobs' },
    cursor,
    limit: extractionJobPageSize,
  });
  return { items: page.items.map(toJob), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
}

/** `retryExtractionJob`: puts a failed job back in the queue under the same id. */
export function retryExtractionJob(
  context: MemoryAdapterContext,
  providerJobId: string,
  scope: MemoryScope,
): MemoryExtractionRetryResult {
  const job = context.state.findJob(providerJobId, scope);
  if (job === undefined) throw new MemoryNotFoundError({ resourceId: providerJobId });
  if (job.status !== 'failed') {
    throw new MemoryConflictError({
      message: `Extraction job ${job.id} is ${job.status}; only failed jobs can be retried.`,
    });
  }
  job.status = 'queued';
  job.polls = 0;
  job.failOnRun = extractionFailureInForce(context.faults);
  delete job.startedAt;
  delete job.finishedAt;
  delete job.error;
  return { job: toJob(job) };
}
