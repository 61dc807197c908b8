import {
  MemoryInvalidResponseError,
  scopeMatches,
  type MemoryExtractionJob,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';
import type { MemoryRecordRegistryStore, MemoryRegisteredRecord } from '../store/memory-record-registry-store';
import { agentMayRead, type MemoryAgentReadReach } from './agent-identity';
import { checkSnippets } from './provider-results';

/** What the service knows when it places a provider's records for a caller. */
export interface PlacementContext {
  /** The registry of handles written through the service. */
  registry: MemoryRecordRegistryStore;
  /** The requested scope, company included. */
  scope: MemoryScope;
  /** The binding's provider: record ids are compared within one provider. */
  providerId: string;
  /** The binding the call runs through. */
  bindingId: string;
  /** The agent reading, when the caller is an agent. */
  readerAgentId?: string;
  /** What that agent may read. */
  reach: MemoryAgentReadReach;
}

/** Snippets that were placed, and how many were dropped. */
export interface GuardedSnippets {
  snippets: MemorySnippet[];
  dropped: number;
}

/** Where a record belongs, as far as the service can show. */
type Placement = { placed: true; scope: MemoryScope; ownerKnown: boolean } | { placed: false; why: string };

const companyOnly = (scope: MemoryScope) =>
  scope.agentId === undefined &&
  scope.projectId === undefined &&
  scope.issueId === undefined &&
  scope.runId === undefined &&
  scope.subjectId === undefined &&
  scope.sessionKey === undefined &&
  scope.namespace === undefined;

/** The registration of a record for the caller's company, preferring the binding's own. */
function ownRegistration(own: MemoryRegisteredRecord[], bindingId: string, id: string): MemoryRegisteredRecord | undefined {
  let found: MemoryRegisteredRecord | undefined;
  for (const entry of own) {
    if (entry.providerRecordId !== id) continue;
    if (entry.bindingId === bindingId) return entry;
    found ??= entry;
  }
  return found;
}

/**
 * Where a record belongs. A record registered for another company is foreign whatever it says
 * about itself (a forged scope). A record registered for the caller's company is placed by its
 * registration. Otherwise its own scope must name the company; a record with only a source in
 * the company is placed for company-wide requests, its agent unknown; a record with neither is
 * not placed.
 */
function place(snippet: MemorySnippet, context: PlacementContext, own: MemoryRegisteredRecord[], foreign: ReadonlySet<string>): Placement {
  const companyId = context.scope.companyId;
  const id = snippet.handle.providerRecordId;
  const registered = ownRegistration(own, context.bindingId, id);
  // Providers with storage per binding (the in-process and markdown ones) may reuse an id in two
  // companies: the binding's own registration wins; any other company's registration is foreign.
  if (foreign.has(id) && registered?.bindingId !== context.bindingId) return { placed: false, why: 'it was written for another company' };
  if (snippet.source !== undefined && snippet.source.companyId !== companyId) return { placed: false, why: 'its source belongs to another company' };
  if (snippet.scope !== undefined && snippet.scope.companyId !== companyId) return { placed: false, why: 'its scope belongs to another company' };
  if (registered !== undefined) return { placed: true, scope: registered.scope, ownerKnown: true };
  if (snippet.scope !== undefined) return { placed: true, scope: snippet.scope, ownerKnown: true };
  if (snippet.source !== undefined) return { placed: true, scope: { companyId }, ownerKnown: false };
  return { placed: false, why: 'it has no scope or source and was not written through the service, so it cannot be placed' };
}

/** Whether a placed record may be shown for the request and the reader. */
function visibility(placement: Extract<Placement, { placed: true }>, context: PlacementContext): string | undefined {
  if (!placement.ownerKnown) {
    if (!companyOnly(context.scope)) return 'only its source is known, which cannot show it belongs to the requested scope';
    if (context.readerAgentId !== undefined && context.reach !== 'company') return 'only its source is known, which cannot show which agent it belongs to';
    return undefined;
  }
  if (!scopeMatches(placement.scope, context.scope)) return 'its scope does not match the requested scope';
  if (!agentMayRead(context.readerAgentId, placement.scope.agentId, context.reach)) return 'it belongs to another agent';
  return undefined;
}

/**
 * The service's own check of every record a provider returns, whatever the adapter did. Each
 * record is validated (a malformed one is `MemoryInvalidResponseError`), then placed: from the
 * registry of handles written through the service (one read per page), else from its own scope
 * and source. A record that is foreign, outside the requested scope, another agent's (beyond
 * the agent policy), or that cannot be placed at all is dropped and reported as a
 * `scope_violation` warning. Drops the adapter reported itself are counted too.
 */
export async function guardSnippets(
  value: unknown,
  context: PlacementContext,
  warnings: MemoryWarning[],
  description: string,
  pathPrefix: string,
): Promise<GuardedSnippets> {
  if (!Array.isArray(value)) throw new MemoryInvalidResponseError({ message: `Malformed ${description}: expected an array of records.`, field: pathPrefix });
  let dropped = 0;
  for (const warning of warnings) if (warning.type === 'scope_violation') dropped += 1;
  const checked = checkSnippets(value, description, pathPrefix);
  if (checked.length === 0) return { snippets: [], dropped };
  const placement = await context.registry.placeRecords(
    context.scope.companyId,
    context.providerId,
    checked.map((snippet) => snippet.handle.providerRecordId),
  );
  const foreign = new Set(placement.foreignIds);
  const snippets: MemorySnippet[] = [];
  for (const snippet of checked) {
    const placed = place(snippet, context, placement.own, foreign);
    const why = placed.placed ? visibility(placed, context) : placed.why;
    if (why === undefined) {
      snippets.push(snippet);
    } else {
      warnings.push({ type: 'scope_violation', providerRecordId: snippet.handle.providerRecordId, details: `dropped: ${why}` });
      dropped += 1;
    }
  }
  return { snippets, dropped };
}

/**
 * Of snippets already shown to a reader, those every member of the company may read: placed
 * (from the registry first, else from their own scope) under no agent. A snippet placed only by
 * its source, or placed under an agent, is left out, so a text shown to a wider audience than its
 * reader (an issue document, say) never carries an agent's own record.
 */
export async function companySharedSnippets(
  snippets: readonly MemorySnippet[],
  context: Pick<PlacementContext, 'registry' | 'scope' | 'providerId' | 'bindingId'>,
): Promise<MemorySnippet[]> {
  if (snippets.length === 0) return [];
  const placement = await context.registry.placeRecords(
    context.scope.companyId,
    context.providerId,
    snippets.map((snippet) => snippet.handle.providerRecordId),
  );
  const foreign = new Set(placement.foreignIds);
  return snippets.filter((snippet) => {
    const placed = place(snippet, { ...context, reach: 'company' }, placement.own, foreign);
    return placed.placed && placed.ownerKnown && placed.scope.agentId === undefined;
  });
}

/** Checks one record (a `get` result); a record that cannot be shown reads as null. */
export async function guardSnippet(
  value: unknown,
  context: PlacementContext,
  warnings: MemoryWarning[],
): Promise<{ snippet: MemorySnippet | null; dropped: number }> {
  if (value === null || value === undefined) return { snippet: null, dropped: 0 };
  const { snippets, dropped } = await guardSnippets([value], context, warnings, 'get result', 'snippet');
  return { snippet: snippets[0] ?? null, dropped };
}

/**
 * A provider's free text about the scope (a query's `profileSummary`, a profile's `summary`)
 * cannot be placed: nothing in it says whose it is. It is passed on only from a binding the
 * operator trusts to scope its summaries (`settings.results.trustProviderSummaries`); otherwise
 * it is withheld with a warning.
 */
export function guardSummary(summary: string | undefined, trusted: boolean, warnings: MemoryWarning[]): string | undefined {
  if (summary === undefined || summary === '' || trusted) return summary;
  warnings.push({
    type: 'other',
    message: 'The provider summary was withheld: free text cannot be shown to belong to the caller\'s company and scope (settings.results.trustProviderSummaries).',
  });
  return undefined;
}

/** Drops extraction jobs whose source belongs to another company. */
export function guardJobs(
  jobs: MemoryExtractionJob[] | undefined,
  scope: MemoryScope,
  warnings: MemoryWarning[],
): { jobs: MemoryExtractionJob[]; dropped: number } {
  if (jobs === undefined) return { jobs: [], dropped: 0 };
  if (!Array.isArray(jobs)) throw new MemoryInvalidResponseError({ message: 'Malformed extraction jobs: expected an array.' });
  const kept: MemoryExtractionJob[] = [];
  let dropped = 0;
  for (const job of jobs) {
    if (typeof job !== 'object' || job === null || typeof job.providerJobId !== 'string') {
      throw new MemoryInvalidResponseError({ message: 'Malformed extraction job: providerJobId must be a string.' });
    }
    if (job.source !== undefined && job.source.companyId !== scope.companyId) {
      warnings.push({ type: 'scope_violation', providerRecordId: job.providerJobId, details: 'the job belongs to another company' });
      dropped += 1;
    } else {
      kept.push(job);
    }
  }
  return { jobs: kept, dropped };
}

/**
 * Jobs of a provider's own listing that name no source cannot be shown to be the company's (a
 * shared backend may list every company's jobs), so their free text (`error`) is withheld with a
 * warning; the id and status stay. Jobs a capture or a poll of the company returned need no such check.
 */
export function withholdUnplacedJobText(jobs: MemoryExtractionJob[], warnings: MemoryWarning[]): MemoryExtractionJob[] {
  return jobs.map((job) => {
    if (job.source !== undefined || job.error === undefined) return job;
    warnings.push({ type: 'scope_violation', providerRecordId: job.providerJobId, details: 'the job names no source in the company, so its error text was withheld' });
    const { error: _withheld, ...rest } = job;
    return rest;
  });
}

/** The handles of a request sorted by what the registry says about them, for the caller's company. */
export interface HandlePlacement {
  /** Registered for the caller's company, with the scope they were written under. */
  own: Map<string, MemoryScope>;
  /** Registered for another company, or issued by another adapter: never forwarded. */
  foreign: MemoryRecordHandle[];
  /** Not registered anywhere: the provider must show where they belong (a `get` with the scope check). */
  unknown: MemoryRecordHandle[];
}

/** Sorts handles by the registry, in one read. */
export async function placeHandles(context: PlacementContext, adapterKey: string, handles: MemoryRecordHandle[]): Promise<HandlePlacement> {
  const result: HandlePlacement = { own: new Map(), foreign: [], unknown: [] };
  const candidates = handles.filter((handle) => {
    if (handle.providerKey === adapterKey) return true;
    result.foreign.push(handle);
    return false;
  });
  if (candidates.length === 0) return result;
  const placement = await context.registry.placeRecords(
    context.scope.companyId,
    context.providerId,
    candidates.map((handle) => handle.providerRecordId),
  );
  const foreign = new Set(placement.foreignIds);
  for (const handle of candidates) {
    const id = handle.providerRecordId;
    const registered = ownRegistration(placement.own, context.bindingId, id);
    if (foreign.has(id) && registered?.bindingId !== context.bindingId) {
      result.foreign.push(handle);
      continue;
    }
    if (registered === undefined) result.unknown.push(handle);
    else result.own.set(id, registered.scope);
  }
  return result;
}
