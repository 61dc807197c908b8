import { MemoryValidationError } from '@memplane/core';
import type { PluginContext, PluginEvent } from '@paperclipai/plugin-sdk';
import { refreshPreambleDocument } from './paperclip-preamble-document';
import { payloadText, present, systemContext, type PaperclipWorkerHost } from './paperclip-worker-host';

/** What `pre_run_hydrate` left for a run, in Paperclip's run-scoped plugin state. */
export interface RunHydrationState {
  companyId: string;
  agentId: string;
  issueId?: string;
  projectId?: string;
  preamble: string;
  hookId: string;
  operationId?: string;
  /** Whether a `memory_search` of this run already returned the preamble. */
  served: boolean;
}

const runStateKey = (runId: string) => ({ scopeKind: 'run' as const, scopeId: runId, namespace: 'memplane', stateKey: 'hydration' });

/** The run's hydration, only when it was made for the same company (a run id from elsewhere reads as none). */
export async function readRunHydration(ctx: PluginContext, runId: string, companyId: string): Promise<RunHydrationState | undefined> {
  const state = (await ctx.state.get(runStateKey(runId))) as RunHydrationState | null | undefined;
  return state != null && state.companyId === companyId ? state : undefined;
}

export async function writeRunHydration(ctx: PluginContext, runId: string, state: RunHydrationState): Promise<void> {
  await ctx.state.set(runStateKey(runId), state);
}

export async function clearRunHydration(ctx: PluginContext, runId: string): Promise<void> {
  await ctx.state.delete(runStateKey(runId));
}

const maxQueryCharacters = 10_000;

/** Whether a service refused the hydration because it does not know the issue link fields (`issueId`, `projectId`). */
function refusesIssueLink(error: unknown): boolean {
  if (!MemoryValidationError.isInstance(error)) return false;
  return error.issues.some((issue) => /\b(issueId|projectId)\b/.test(`${issue.path} ${issue.message}`));
}

/**
 * `pre_run_hydrate` on `agent.run.started`. Paperclip cannot put text into an agent's first
 * prompt, so the preamble is recalled with the issue's title and description, kept in the run's
 * state for the memory tools, and written as an issue document the agent can read.
 */
export async function hydrateRun(host: PaperclipWorkerHost, event: PluginEvent): Promise<void> {
  const { ctx, service } = host;
  const companyId = event.companyId;
  const runId = payloadText(event, 'runId') ?? present(event.entityId);
  const agentId = payloadText(event, 'agentId');
  if (runId === undefined || agentId === undefined) {
    ctx.logger.warn('memplane: agent.run.started without runId or agentId, not hydrated', { eventId: event.eventId });
    return;
  }
  const company = await host.company(companyId);
  if (!company.hydration.enabled) return;
  const issueId = payloadText(event, 'issueId');
  const issue = issueId === undefined ? null : await ctx.issues.get(issueId, companyId);
  const query = [issue?.title, issue?.description]
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .join('\n\n')
    .slice(0, maxQueryCharacters);
  if (query === '') return;
  const projectId = present(issue?.projectId);
  const recall = { agentId, query, heartbeatRunId: runId };
  // The run's issue goes with the hook so its operation is listed under it (the issue tab); it is
  // logged, never used to narrow the recall.
  const link = { ...(issue === null ? {} : { issueId: issue.id }), ...(projectId === undefined ? {} : { projectId }) };
  const context = systemContext(companyId, runId);
  const hydration = await service.hooks.preRunHydrate(context, { ...recall, ...link }).catch(async (error: unknown) => {
    if (Object.keys(link).length === 0 || !refusesIssueLink(error)) throw error;
    // A memplane serve older than the plugin knows no issue link: recall unlinked rather than not at all.
    ctx.logger.warn('memplane: the memory service refused the hydration issue link (a memplane serve older than the plugin?); recalled without it', { runId });
    return service.hooks.preRunHydrate(context, recall);
  });
  await writeRunHydration(ctx, runId, {
    companyId,
    agentId,
    ...(issue === null ? {} : { issueId: issue.id }),
    ...(projectId === undefined ? {} : { projectId }),
    preamble: hydration.preamble,
    hookId: hydration.hookId,
    ...(hydration.operationId === undefined ? {} : { operationId: hydration.operationId }),
    served: false,
  });
  const documentKey = company.hydration.issueDocumentKey;
  if (issue !== null && documentKey !== false) {
    // The board and every agent on the issue read the document: it shows only company-shared memory.
    await refreshPreambleDocument(host, { issueId: issue.id, companyId, key: documentKey, preamble: hydration.sharedPreamble ?? '', runId });
  }
}
