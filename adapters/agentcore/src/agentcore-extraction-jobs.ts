import { randomUUID } from 'node:crypto';
import { ListMemoryExtractionJobsCommand, StartMemoryExtractionJobCommand } from '@aws-sdk/client-bedrock-agentcore';
import {
  memoryHookContextSchema,
  memorySourceRefSchema,
  MemoryNotFoundError,
  type CursorBinding,
  type MemoryExtractionJob,
  type MemoryExtractionJobPage,
  type MemoryExtractionRetryResult,
  type MemoryScope,
  type MemoryUsage,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { agentCoreExtractionJobPageSchema, agentCoreStartJobSchema, type AgentCoreExtractionJob } from './agentcore-api-schemas';
import { decodeNextToken, encodeNextToken } from './agentcore-cursor';
import { actorMayBelongToScope } from './agentcore-event-mapping';
import { fetchEventInScope } from './agentcore-get-operations';
import { toEventHandle } from './agentcore-handle';
import { unpackProvenance } from './agentcore-provenance';
import type { RequestedScope } from './agentcore-record-mapping';
import { encodeScope, toActorId, toSessionId } from './agentcore-scope-mapping';

/** Failed jobs read per `ListMemoryExtractionJobs` call. */
const jobsPageSize = 50;
/** The most `ListMemoryExtractionJobs` calls one page, or one retry lookup, makes. */
const maximumJobCalls = 10;

interface ScopedJobs {
  jobs: MemoryExtractionJob[];
  nextToken: string | undefined;
}

/**
 * The provider-side filter of a scope: the exact actor when the scope names an agent (a
 * company-wide scope spans the company's actor and its agents' actors, so it filters after
 * retrieval), and the session when the scope names a session key or run.
 */
function jobFilter(requested: RequestedScope) {
  const sessionId = toSessionId(requested.encoded);
  return {
    status: 'FAILED' as const,
    ...(requested.encoded.agentId === undefined ? {} : { actorId: toActorId(requested.encoded) }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

/** Whether the scope names fields that only the event's metadata can confirm. */
function needsEventCheck(requested: RequestedScope): boolean {
  const { fields } = requested.encoded;
  const checkedBySession = fields.sessionKey !== undefined ? ['sessionKey'] : fields.runId !== undefined ? ['runId'] : [];
  return Object.keys(fields).some((field) => !checkedBySession.includes(field));
}

/**
 * Maps one failed job after checking it belongs to the scope: its actor must be the scope's
 * company (and agent). Then the job's first event is read (one `GetEvent` per failed job) for
 * the source and hook that caused the work, and to check the scope fields only the event
 * knows. A job whose event is gone is still listed when the actor suffices for the scope.
 * Returns undefined for a job outside the scope.
 */
async function toScopedJob(
  context: AgentCoreAdapterContext,
  job: AgentCoreExtractionJob,
  requested: RequestedScope,
  usage: MemoryUsage[],
): Promise<MemoryExtractionJob | undefined> {
  if (job.actorId === undefined || !actorMayBelongToScope(job.actorId, requested.encoded)) return undefined;
  const mapped: MemoryExtractionJob = {
    providerJobId: job.jobID,
    status: 'failed',
    error: job.failureReason !== undefined && job.failureReason.trim() !== '' ? job.failureReason : 'AgentCore reported the extraction as failed without a reason.',
  };
  const [message] = job.messages?.messagesList ?? [];
  const address = job.sessionId === undefined || message === undefined ? undefined : { actorId: job.actorId, sessionId: job.sessionId, eventId: message.eventId };
  const event = address === undefined ? undefined : await fetchEventInScope(context, address, toEventHandle(address), requested, usage);
  if (event === undefined) return needsEventCheck(requested) ? undefined : mapped;
  const provenance = unpackProvenance(event.metadata);
  if (provenance === undefined || provenance === 'unreadable') return mapped;
  const source = memorySourceRefSchema.safeParse(provenance.s);
  if (source.success && source.data.companyId === requested.scope.companyId) mapped.source = source.data;
  const hook = memoryHookContextSchema.safeParse(provenance.h);
  if (hook.success) mapped.hookKind = hook.data.hookKind;
  return mapped;
}

async function readJobs(
  context: AgentCoreAdapterContext,
  requested: RequestedScope,
  nextToken: string | undefined,
  usage: MemoryUsage[],
): Promise<{ jobs: AgentCoreExtractionJob[]; nextToken: string | undefined }> {
  const { value, usage: callUsage } = await context.call({ operation: 'ListMemoryExtractionJobs' }, agentCoreExtractionJobPageSchema, (abortSignal) =>
    context.client.send(
      new ListMemoryExtractionJobsCommand({
        memoryId: context.memoryId,
        maxResults: jobsPageSize,
        filter: jobFilter(requested),
        ...(nextToken === undefined ? {} : { nextToken }),
      }),
      { abortSignal },
    ),
  );
  usage.push(callUsage);
  return { jobs: value.jobs, nextToken: value.nextToken };
}

async function collectScopedJobs(
  context: AgentCoreAdapterContext,
  requested: RequestedScope,
  startToken: string | undefined,
  usage: MemoryUsage[],
  enough: (jobs: MemoryExtractionJob[]) => boolean,
): Promise<ScopedJobs> {
  const jobs: MemoryExtractionJob[] = [];
  let nextToken = startToken;
  for (let call = 0; call < maximumJobCalls; call += 1) {
    const page = await readJobs(context, requested, nextToken, usage);
    for (const job of page.jobs) {
      const scoped = await toScopedJob(context, job, requested, usage);
      if (scoped !== undefined) jobs.push(scoped);
    }
    nextToken = page.nextToken;
    if (nextToken === undefined || enough(jobs)) break;
  }
  return { jobs, nextToken };
}

/**
 * `listExtractionJobs`: `ListMemoryExtractionJobs`, which shows **failed jobs only**: AgentCore
 * has no listing of queued, running or finished extractions. Jobs of other scopes are
 * filtered at AgentCore where it can (actor, session) and by the adapter otherwise.
 */
export async function listAgentCoreExtractionJobs(
  context: AgentCoreAdapterContext,
  scope: MemoryScope,
  cursor: string | undefined,
): Promise<MemoryExtractionJobPage> {
  const binding: CursorBinding = { scope, listing: 'extraction-jobs' };
  const startToken = cursor === undefined ? undefined : decodeNextToken(context.cursors, cursor, binding);
  const requested: RequestedScope = { scope, encoded: encodeScope(scope) };
  const usage: MemoryUsage[] = [];
  const { jobs, nextToken } = await collectScopedJobs(context, requested, startToken, usage, (found) => found.length > 0);
  const page: MemoryExtractionJobPage = { items: jobs, usage };
  if (nextToken !== undefined) page.nextCursor = encodeNextToken(context.cursors, nextToken, binding);
  return page;
}

/**
 * `retryExtractionJob`: finds the failed job among the scope's failed jobs (a job of another
 * scope reads as not found), then re-drives it with `StartMemoryExtractionJob`. AgentCore
 * accepts the job again and reports nothing more, so the job comes back `queued`.
 */
export async function retryAgentCoreExtractionJob(
  context: AgentCoreAdapterContext,
  providerJobId: string,
  scope: MemoryScope,
): Promise<MemoryExtractionRetryResult> {
  const requested: RequestedScope = { scope, encoded: encodeScope(scope) };
  const usage: MemoryUsage[] = [];
  const { jobs } = await collectScopedJobs(context, requested, undefined, usage, (found) =>
    found.some((job) => job.providerJobId === providerJobId),
  );
  const failed = jobs.find((job) => job.providerJobId === providerJobId);
  if (failed === undefined) throw new MemoryNotFoundError({ resourceId: providerJobId });
  const clientToken = randomUUID();
  const { value, usage: startUsage } = await context.call({ operation: 'StartMemoryExtractionJob', resourceId: providerJobId }, agentCoreStartJobSchema, (abortSignal) =>
    context.client.send(new StartMemoryExtractionJobCommand({ memoryId: context.memoryId, extractionJob: { jobId: providerJobId }, clientToken }), { abortSignal }),
  );
  usage.push(startUsage);
  const job: MemoryExtractionJob = { providerJobId: value.jobId, status: 'queued', submittedAt: new Date().toISOString() };
  if (failed.hookKind !== undefined) job.hookKind = failed.hookKind;
  return { job, usage };
}
