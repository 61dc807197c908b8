import { MemoryApiCallError, type MemoryAdapter, type MemoryProviderDefinition } from '@memplane/core';
import type { Company, Issue, IssueComment, PaperclipPluginManifestV1, PluginEvent } from '@paperclipai/plugin-sdk';

/** The capabilities the worker uses, for a harness that does not depend on the shipped manifest's UI slots. */
export const workerCapabilities = [
  'events.subscribe',
  'issues.read',
  'issue.comments.read',
  'issue.documents.read',
  'issue.documents.write',
  'agents.read',
  'plugin.state.read',
  'plugin.state.write',
  'agent.tools.register',
  'secrets.read-ref',
  'metrics.write',
  'http.outbound',
] as const;

export const workerTestManifest: PaperclipPluginManifestV1 = {
  id: 'memplane.memory-test',
  apiVersion: 1,
  version: '0.0.0',
  displayName: 'memplane (worker test)',
  description: 'The worker under test.',
  author: 'memplane',
  categories: ['connector'],
  capabilities: [...workerCapabilities],
  entrypoints: { worker: './dist/worker.js' },
};

const at = new Date('2026-11-24T10:00:00Z');

export function company(id: string): Company {
  return { id, name: id, issuePrefix: id.slice(0, 3).toUpperCase(), createdAt: at, updatedAt: at } as unknown as Company;
}

export function issue(companyId: string, id: string, title: string, description: string, projectId = `${companyId}-project`): Issue {
  return { id, companyId, projectId, title, description, status: 'todo', createdAt: at, updatedAt: at } as unknown as Issue;
}

/**
 * A comment as the host stores it. `createdAt` orders the thread (the host lists it newest
 * first); default: the fixtures' one instant.
 */
export function comment(
  companyId: string,
  issueId: string,
  id: string,
  body: string,
  author: { agentId?: string; runId?: string; userId?: string },
  createdAt: Date = at,
): IssueComment {
  return {
    id,
    companyId,
    issueId,
    authorType: author.agentId === undefined ? 'user' : 'agent',
    authorAgentId: author.agentId ?? null,
    authorUserId: author.userId ?? null,
    createdByRunId: author.runId ?? null,
    body,
    presentation: null,
    metadata: null,
    createdAt,
    updatedAt: createdAt,
  } as unknown as IssueComment;
}

/**
 * What `harness.emit` takes for one host event: the payload and the event's envelope. The
 * shapes are the ones a real Paperclip host (2026.916.1) emits; the company is the envelope's
 * `companyId` and never part of the payload.
 */
export type HostEvent = readonly [payload: Record<string, unknown>, envelope: Partial<PluginEvent>];

/** `agent.run.started` / `.finished` / `.failed` / `.cancelled`: about the heartbeat run, its issue in the payload. */
export function runEvent(
  companyId: string,
  run: { runId: string; agentId: string; issueId?: string; status?: string },
  eventId?: string,
): HostEvent {
  return [
    {
      runId: run.runId,
      agentId: run.agentId,
      status: run.status ?? 'running',
      invocationSource: 'assignment',
      triggerDetail: 'system',
      error: null,
      errorCode: null,
      issueId: run.issueId ?? null,
      startedAt: at.toISOString(),
      finishedAt: run.status === undefined ? null : at.toISOString(),
    },
    { companyId, entityType: 'heartbeat_run', entityId: run.runId, ...(eventId === undefined ? {} : { eventId }) },
  ];
}

/** `issue.comment.created`: about the issue; the payload names the comment and carries a 120-character snippet only. */
export function commentEvent(
  companyId: string,
  issueId: string,
  created: { commentId: string; body?: string; agentId?: string; runId?: string },
  eventId?: string,
): HostEvent {
  return [
    {
      commentId: created.commentId,
      bodySnippet: (created.body ?? '').slice(0, 120),
      identifier: `${companyId.slice(0, 3).toUpperCase()}-1`,
      issueTitle: 'Issue title',
      authorizationReason: null,
      agentId: created.agentId ?? null,
      runId: created.runId ?? null,
      responsibleUserId: null,
    },
    { companyId, entityType: 'issue', entityId: issueId, ...(eventId === undefined ? {} : { eventId }) },
  ];
}

/** `issue.document.created` / `.updated`: about the issue; the payload names the document by key. */
export function documentEvent(
  companyId: string,
  issueId: string,
  document: { key: string; revisionNumber?: number; agentId?: string; runId?: string },
  eventId?: string,
): HostEvent {
  return [
    {
      key: document.key,
      documentId: `${issueId}-${document.key}`,
      title: null,
      format: 'markdown',
      revisionNumber: document.revisionNumber ?? 1,
      redirectedFromLockedDocument: false,
      agentId: document.agentId ?? null,
      runId: document.runId ?? null,
      responsibleUserId: null,
    },
    { companyId, entityType: 'issue', entityId: issueId, ...(eventId === undefined ? {} : { eventId }) },
  ];
}

/** A provider whose every call fails the way a down backend does (HTTP 500), and counts its calls. */
export function createDownProvider(): { factory: MemoryProviderDefinition; calls: () => number } {
  let calls = 0;
  const down = async (): Promise<never> => {
    calls += 1;
    throw new MemoryApiCallError({ message: 'backend unavailable', statusCode: 500, isRetryable: false });
  };
  const adapter = {
    specificationVersion: 'v1',
    key: 'down',
    capabilities: {},
    capture: down,
    upsertRecords: down,
    query: down,
    list: down,
    get: down,
    forget: down,
    profile: down,
    correct: down,
    getExtractionJob: down,
    listExtractionJobs: down,
    retryExtractionJob: down,
    explain: down,
  } as unknown as MemoryAdapter;
  return { factory: { providerId: 'down', description: 'Fails every call (test only).', capabilities: {}, create: () => adapter }, calls: () => calls };
}

/**
 * A provider that bills every query directly: `usage` as given (cost in cents, tokens), nothing
 * found. The other calls are not needed by the accounting tests.
 */
export function createMeteredProvider(usage: Array<Record<string, unknown>>): MemoryProviderDefinition {
  const unused = async (): Promise<never> => {
    throw new MemoryApiCallError({ message: 'not used by this test provider', isRetryable: false });
  };
  const adapter = {
    specificationVersion: 'v1',
    key: 'metered',
    capabilities: {},
    query: async () => ({ snippets: [], usage: usage.map((entry) => ({ provider: 'metered', ...entry })) }),
    capture: unused,
    upsertRecords: unused,
    list: unused,
    get: unused,
    forget: unused,
    profile: unused,
    correct: unused,
    getExtractionJob: unused,
    listExtractionJobs: unused,
    retryExtractionJob: unused,
    explain: unused,
  } as unknown as MemoryAdapter;
  return { providerId: 'metered', description: 'Bills every query directly (test only).', capabilities: {}, create: () => adapter };
}
