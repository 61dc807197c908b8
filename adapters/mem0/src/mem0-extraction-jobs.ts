import {
  InvalidCursorError,
  MemoryApiCallError,
  MemoryNotFoundError,
  MemoryValidationError,
  scopeMatches,
  type CursorBinding,
  type MemoryExtractionJobPage,
  type MemoryExtractionJobResult,
  type MemoryExtractionRetryResult,
  type MemoryExtractionJob,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0EventPageSchema, mem0EventSchema, mem0QueuedAddSchema, type Mem0Event } from './mem0-api-schemas';
import { isJobInScope, readEventPayload, readPayloadScope, toExtractionJob, toJobStatus } from './mem0-extraction-job-mapping';
import { toMem0EntityIds } from './mem0-scope-mapping';

const pagePositionSchema = z.strictObject({ page: z.number().int().min(2) });

/**
 * Reads one event through the SDK's own authenticated request method: the SDK has no
 * method for `GET /v1/event/{id}/`. The server's processing time goes in the usage.
 */
async function readEvent(context: Mem0AdapterContext, eventId: string, usage: MemoryUsage[]): Promise<Mem0Event | null> {
  try {
    const { value, usage: callUsage } = await context.call(
      { operation: 'getExtractionJob (GET /v1/event/{id}/)', resourceId: eventId },
      mem0EventSchema,
      (client) => client._fetchWithErrorHandling(`${client.host}/v1/event/${encodeURIComponent(eventId)}/`, { headers: client.headers }),
    );
    if (typeof value.latency === 'number') {
      callUsage.details = { ...callUsage.details, serverLatencyMs: value.latency };
      callUsage.raw = { latency: value.latency };
    }
    usage.push(callUsage);
    return value;
  } catch (error) {
    if (MemoryNotFoundError.isInstance(error)) return null;
    throw error;
  }
}

/** The event of a job id, when the id is signed for the scope's company and the event is a job of the scope. */
async function readJob(context: Mem0AdapterContext, jobId: string, scope: MemoryScope, usage: MemoryUsage[]): Promise<Mem0Event | null> {
  const signed = context.jobIds.read(jobId, scope);
  if (signed === undefined) return null;
  const event = await readEvent(context, signed.eventId, usage);
  return event !== null && isJobInScope(event, signed, scope, context.jobIds.digest) ? event : null;
}

/**
 * `getExtractionJob`: the event of a capture. The job id says whose it is (see
 * `mem0-job-id.ts`); unknown events, ids of another company and events of another scope
 * read as null.
 */
export async function getMem0ExtractionJob(context: Mem0AdapterContext, jobId: string, scope: MemoryScope): Promise<MemoryExtractionJobResult> {
  const usage: MemoryUsage[] = [];
  const event = await readJob(context, jobId, scope, usage);
  return { job: event === null ? null : toExtractionJob(event, jobId), usage };
}

/**
 * The job of one listed event, when the request mem0 echoed places it in the scope.
 * Undefined for events that are not extracting adds; `'unplaced'` for an entry of unknown
 * shape or an extracting add whose echo does not say whose it is: mem0 lists the whole
 * project, so such an event is left out (fail closed) and counted in a warning.
 */
function toListedJob(context: Mem0AdapterContext, entry: unknown, scope: MemoryScope): MemoryExtractionJob | 'unplaced' | undefined {
  const parsed = mem0EventSchema.safeParse(entry);
  if (!parsed.success) return 'unplaced';
  const event = parsed.data;
  if (event.eventType !== 'ADD') return undefined;
  if ((event.payload as { infer?: unknown } | null | undefined)?.infer === false) return undefined;
  const echoed = readPayloadScope(readEventPayload(event));
  if (echoed === undefined) return 'unplaced';
  if (echoed.companyId !== scope.companyId || !scopeMatches(echoed, scope)) return undefined;
  return toExtractionJob(event, context.jobIds.issue(event.id, echoed));
}

/**
 * `listExtractionJobs`: one page of `GET /v1/events/` (the project's events, newest first),
 * keeping the extracting adds of the scope. mem0 cannot filter events, so a page may hold
 * none of the scope's jobs and still have a next page; a job can repeat when events are
 * added during the walk, since mem0 pages by number. Each entry is read on its own: one
 * event of an unknown shape or status, from any tenant, never fails the page.
 */
export async function listMem0ExtractionJobs(context: Mem0AdapterContext, scope: MemoryScope, cursor: string | undefined): Promise<MemoryExtractionJobPage> {
  const binding: CursorBinding = { scope, listing: 'extraction-jobs' };
  let page = 1;
  if (cursor !== undefined) {
    const position = pagePositionSchema.safeParse(context.cursors.decode(cursor, binding));
    if (!position.success) throw new InvalidCursorError({ reason: 'malformed', cause: position.error });
    page = position.data.page;
  }
  const { value, usage } = await context.call({ operation: 'listExtractionJobs (GET /v1/events/)' }, mem0EventPageSchema, (client) =>
    client._fetchWithErrorHandling(`${client.host}/v1/events/?page=${page}`, { headers: client.headers }),
  );
  const items: MemoryExtractionJob[] = [];
  let unplaced = 0;
  for (const entry of value.results) {
    const job = toListedJob(context, entry, scope);
    if (job === 'unplaced') unplaced += 1;
    else if (job !== undefined) items.push(job);
  }
  const warnings: MemoryWarning[] = [];
  if (unplaced > 0) {
    warnings.push({
      type: 'other',
      message: `${unplaced} mem0 event(s) on this page could not be placed in a scope (an unknown shape, or no echo of the original request) and were left out.`,
    });
  }
  const result: MemoryExtractionJobPage = { items, usage: [usage], ...(warnings.length > 0 ? { warnings } : {}) };
  if (value.next !== null && value.next !== undefined) {
    const nextPage = Number(new URL(value.next, context.settings.baseURL).searchParams.get('page') ?? page + 1);
    result.nextCursor = context.cursors.encode({ page: Number.isInteger(nextPage) && nextPage > page ? nextPage : page + 1 }, binding);
  }
  return result;
}

/**
 * `retryExtractionJob`: mem0 has no retry endpoint, but a failed event keeps its original
 * add request (`payload`). The retry sends that request again (`add` with `infer: true`,
 * the same messages and metadata, entity ids rebuilt from the scope it proves), which starts
 * a new event: the returned job has the new id. Only failed jobs are retried, and only when
 * mem0 echoed the messages and the scope metadata; otherwise the retry fails with a typed
 * error (there is nothing safe to send again).
 */
export async function retryMem0ExtractionJob(context: Mem0AdapterContext, jobId: string, scope: MemoryScope): Promise<MemoryExtractionRetryResult> {
  const usage: MemoryUsage[] = [];
  const event = await readJob(context, jobId, scope, usage);
  if (event === null) throw new MemoryNotFoundError({ resourceId: jobId });
  if (toJobStatus(event.status) !== 'failed') {
    throw new MemoryValidationError({
      target: 'retryExtractionJob request',
      issues: [{ path: 'providerJobId', message: `the job is ${toJobStatus(event.status)}; only failed jobs can be retried` }],
    });
  }
  const payload = readEventPayload(event);
  const messages = payload?.messages;
  const capturedScope = readPayloadScope(payload);
  if (payload === undefined || messages === undefined || messages.length === 0 || capturedScope === undefined) {
    throw new MemoryApiCallError({ message: `mem0 event ${event.id} kept no request (messages and scope metadata) to send again.`, isRetryable: false });
  }
  const { value, usage: addUsage } = await context.call({ operation: 'retryExtractionJob (add, infer true)', repeatable: false }, mem0QueuedAddSchema, (client) =>
    client.add(messages as Parameters<typeof client.add>[0], { ...toMem0EntityIds(capturedScope), metadata: payload.metadata ?? {}, infer: true }),
  );
  usage.push(addUsage);
  const previous = toExtractionJob(event, jobId);
  const job = { ...previous, providerJobId: context.jobIds.issue(value.eventId, capturedScope), status: toJobStatus(value.status), submittedAt: new Date().toISOString() };
  delete job.error;
  delete job.startedAt;
  delete job.finishedAt;
  return { job, usage };
}
