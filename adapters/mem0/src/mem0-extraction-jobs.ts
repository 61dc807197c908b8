import {
  InvalidCursorError,
  MemoryApiCallError,
  MemoryNotFoundError,
  MemoryValidationError,
  type CursorBinding,
  type MemoryExtractionJobPage,
  type MemoryExtractionJobResult,
  type MemoryExtractionRetryResult,
  type MemoryScope,
  type MemoryUsage,
} from '@memplane/core';
import { z } from 'zod';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0EventPageSchema, mem0EventSchema, mem0QueuedAddSchema, type Mem0Event } from './mem0-api-schemas';
import { isJobInScope, readEventPayload, toExtractionJob, toJobStatus } from './mem0-extraction-job-mapping';

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

/** `getExtractionJob`: the event of a capture. Unknown events, and events of another scope, read as null. */
export async function getMem0ExtractionJob(context: Mem0AdapterContext, eventId: string, scope: MemoryScope): Promise<MemoryExtractionJobResult> {
  const usage: MemoryUsage[] = [];
  const event = await readEvent(context, eventId, usage);
  return { job: event !== null && isJobInScope(event, scope) ? toExtractionJob(event) : null, usage };
}

/**
 * `listExtractionJobs`: one page of `GET /v1/events/` (the project's events, newest first),
 * keeping the extracting adds of the scope. mem0 cannot filter events, so a page may hold
 * none of the scope's jobs and still have a next page; a job can repeat when events are
 * added during the walk, since mem0 pages by number.
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
  const result: MemoryExtractionJobPage = {
    items: value.results.filter((event) => isJobInScope(event, scope)).map(toExtractionJob),
    usage: [usage],
  };
  if (value.next !== null && value.next !== undefined) {
    const nextPage = Number(new URL(value.next, context.settings.baseURL).searchParams.get('page') ?? page + 1);
    result.nextCursor = context.cursors.encode({ page: Number.isInteger(nextPage) && nextPage > page ? nextPage : page + 1 }, binding);
  }
  return result;
}

/**
 * `retryExtractionJob`: mem0 has no retry endpoint, but a failed event keeps its original
 * add request (`payload`). The retry sends that request again (`add` with `infer: true`,
 * the same messages, entity ids and metadata), which starts a new event: the returned job
 * has the new id. Only failed jobs are retried.
 */
export async function retryMem0ExtractionJob(context: Mem0AdapterContext, eventId: string, scope: MemoryScope): Promise<MemoryExtractionRetryResult> {
  const usage: MemoryUsage[] = [];
  const event = await readEvent(context, eventId, usage);
  if (event === null || !isJobInScope(event, scope)) throw new MemoryNotFoundError({ resourceId: eventId });
  if (event.status !== 'FAILED') {
    throw new MemoryValidationError({
      target: 'retryExtractionJob request',
      issues: [{ path: 'providerJobId', message: `the job is ${toJobStatus(event.status)}; only failed jobs can be retried` }],
    });
  }
  const payload = readEventPayload(event);
  const messages = payload?.messages;
  if (payload === undefined || messages === undefined || messages.length === 0) {
    throw new MemoryApiCallError({ message: `mem0 event ${eventId} kept no messages to send again.`, isRetryable: false });
  }
  const entityIds = {
    appId: scope.companyId,
    ...(typeof payload.userId === 'string' ? { userId: payload.userId } : {}),
    ...(typeof payload.agentId === 'string' ? { agentId: payload.agentId } : {}),
    ...(typeof payload.runId === 'string' ? { runId: payload.runId } : {}),
  };
  const { value, usage: addUsage } = await context.call({ operation: 'retryExtractionJob (add, infer true)', repeatable: false }, mem0QueuedAddSchema, (client) =>
    client.add(messages as Parameters<typeof client.add>[0], { ...entityIds, metadata: payload.metadata ?? {}, infer: true }),
  );
  usage.push(addUsage);
  const previous = toExtractionJob(event);
  const job = { ...previous, providerJobId: value.eventId, status: toJobStatus(value.status), submittedAt: new Date().toISOString() };
  delete job.error;
  delete job.startedAt;
  delete job.finishedAt;
  return { job, usage };
}
