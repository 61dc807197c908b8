import type { MemoryRecordHandle, MemoryWarning } from '@memplane/core';
import { MemoryAccessDeniedError, type MemoryRuntime, type MemoryServiceScope } from '@memplane/service';

/**
 * Keeps an agent's tool calls to that agent when they go to `memplane serve`. The worker's token
 * is an operator's (it serves every company and emits hooks), and a `memplane serve` token
 * cannot act as one agent on another's behalf, so the server would run an agent's call with
 * the operator's reach. Here, before a call leaves the worker:
 * - a read or write names the agent's scope (`scope.agentId`); naming another agent is refused;
 * - `forget` and `correct` go only to records a read narrowed to the agent returns as its own;
 * - the calls the plugin's tools never make (jobs, provider listings) are refused.
 * This is narrower than the in-worker service, whose agents also read the company's shared
 * records (the policy's `own-and-shared`): in this mode an agent's search reaches its own
 * records, and the run's preamble (recalled by the worker as the system) brings the rest.
 */
export function guardAgentRuntime(runtime: MemoryRuntime, agentId: string, companyId: string): MemoryRuntime {
  const deny = (operation: string, reason: string) => new MemoryAccessDeniedError({ operation, companyId, reason });
  const narrowed = <Request extends { scope?: MemoryServiceScope }>(operation: string, request: Request): Request => {
    const asked = request.scope?.agentId;
    if (asked !== undefined && asked !== agentId) throw deny(operation, `agent "${agentId}" asked to reach agent "${asked}"; an agent acts as itself`);
    return { ...request, scope: { ...request.scope, agentId } };
  };
  const owns = async (handle: MemoryRecordHandle) => {
    const { snippet } = await runtime.get({ handle, scope: { agentId } });
    // The server drops a record outside the requested scope (another agent's included); a record that names its agent must name this one.
    return snippet !== null && (snippet.scope?.agentId ?? agentId) === agentId;
  };
  /**
   * Whose a record is: the agent's own; another's (another agent's, or the company's shared
   * one: the read narrowed to the agent does not show it, a company-wide read does); or missing
   * (the server knows no such record in the company; another company's reads the same).
   */
  const ownerOf = async (handle: MemoryRecordHandle): Promise<'mine' | 'not_found' | 'not_yours'> => {
    if (await owns(handle)) return 'mine';
    const { snippet } = await runtime.get({ handle });
    return snippet === null ? 'not_found' : 'not_yours';
  };
  const notForAgents = (operation: string) => async (): Promise<never> => {
    throw deny(operation, 'the plugin does not send this call for an agent to memplane serve');
  };
  return {
    ...runtime,
    capture: (request) => runtime.capture(narrowed('capture', request)),
    upsertRecords: (request) => runtime.upsertRecords(narrowed('upsertRecords', request)),
    query: (request) => runtime.query(narrowed('query', request)),
    list: (request = {}) => runtime.list(narrowed('list', request)),
    get: (request) => runtime.get(narrowed('get', request)),
    profile: (request = {}) => runtime.profile(narrowed('profile', request)),
    async forget(request) {
      const { handles, ...rest } = narrowed('forget', request);
      const mine: MemoryRecordHandle[] = [];
      const skipped: MemoryWarning[] = [];
      for (const handle of handles) {
        const owner = await ownerOf(handle);
        if (owner === 'mine') mine.push(handle);
        else if (owner === 'not_found') skipped.push({ type: 'not_found', providerRecordId: handle.providerRecordId, details: 'no such record in the company; not sent to memplane serve' });
        else skipped.push({ type: 'scope_violation', providerRecordId: handle.providerRecordId, details: 'not the agent\'s own record; not sent to memplane serve' });
      }
      if (mine.length === 0) throw deny('forget', `none of the records is agent "${agentId}"'s own`);
      // The server counts only what it forgot of the records sent; the skipped ones were never sent.
      const forgotten = await runtime.forget({ ...rest, handles: mine });
      return skipped.length === 0 ? forgotten : { ...forgotten, warnings: [...(forgotten.warnings ?? []), ...skipped] };
    },
    async correct(request) {
      const valid = narrowed('correct', request);
      if (!(await owns(valid.handle))) throw deny('correct', `the record is not agent "${agentId}"'s own`);
      return runtime.correct(valid);
    },
    listProviderExtractionJobs: notForAgents('listProviderExtractionJobs'),
    retryExtractionJob: notForAgents('retryExtractionJob'),
    refreshExtractionJobs: notForAgents('refreshExtractionJobs'),
    listExtractionJobs: notForAgents('listExtractionJobs'),
  };
}
