import { identifierSchema, parseInput } from '@memplane/core';
import { MemoryAccessDeniedError, type MemoryActor } from '@memplane/service';
import type { MemplaneTokenRecord } from '@memplane/host';

/** The header a relay (the Paperclip plugin, say) names the agent it calls for with. */
export const actingAgentHeader = 'memplane-agent-id';

/**
 * The agent a call names in `Memplane-Agent-Id`, as the actor. Only an operator token issued
 * with `actAsAgents` may act as an agent, and only in a company its grant reaches: a relay that
 * serves many agents then calls as each one, so the service applies that agent's identity
 * policy (its own records and the shared ones; no writing as another agent) and logs the agent
 * as the actor. An agent token may name itself. Anything else is refused before the service
 * is called.
 */
function actingAgent(record: MemplaneTokenRecord, companyId: string | undefined, header: string): MemoryActor {
  const agentId = parseInput(identifierSchema, header, 'Memplane-Agent-Id header', 'memplane-agent-id');
  const deny = (reason: string) => new MemoryAccessDeniedError({ operation: 'act as an agent', companyId: companyId ?? '(none)', reason });
  if (companyId === undefined) throw deny('an agent is named only on the routes of a company');
  if (record.role === 'agent') {
    if (record.agentId === agentId && record.companyId === companyId) return { kind: 'agent', companyId, agentId };
    throw deny(`agent "${record.agentId}" may not act as agent "${agentId}"`);
  }
  if (record.role !== 'operator' || record.actAsAgents !== true) throw deny('this token may not act as an agent; issue an operator token with --act-as-agents');
  if (!grantReaches(record, companyId)) throw deny(`operator "${record.operatorId}" is not granted this company`);
  return { kind: 'agent', companyId, agentId };
}

/**
 * The actor a token acts as in a call that names `companyId`. The company of an admin or agent
 * token stays its own: naming another company is left to the service, which refuses it (403).
 * An operator for every company is granted the named one; an operator with a list keeps its
 * list, and the service's policy refuses a company outside it. With `actingAgentId` (the
 * `Memplane-Agent-Id` header) the actor is that agent, when the token may act as it.
 */
export function actorOf(record: MemplaneTokenRecord, companyId: string | undefined, actingAgentId?: string): MemoryActor {
  if (actingAgentId !== undefined) return actingAgent(record, companyId, actingAgentId);
  switch (record.role) {
    case 'operator':
      return {
        kind: 'operator',
        operatorId: record.operatorId,
        grantedCompanyIds: record.companyIds ?? (companyId === undefined ? [] : [companyId]),
      };
    case 'admin':
      return { kind: 'company', companyId: record.companyId, userId: record.userId ?? record.id, role: 'admin' };
    case 'agent':
      return { kind: 'agent', companyId: record.companyId, agentId: record.agentId };
  }
  return record satisfies never;
}

/** Whether a token's grant reaches a company (for the zero-config default binding, never for access: the policy decides that). */
export function grantReaches(record: MemplaneTokenRecord, companyId: string): boolean {
  if (record.role === 'operator') return record.companyIds === undefined || record.companyIds.includes(companyId);
  return record.companyId === companyId;
}
