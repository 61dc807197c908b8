import type { MemoryActor } from '@memplane/service';
import type { ServerTokenRecord } from './server-token-file';

/**
 * The actor a token acts as in a call that names `companyId`. The company of an admin or agent
 * token stays its own: naming another company is left to the service, which refuses it (403).
 * An operator for every company is granted the named one; an operator with a list keeps its
 * list, and the service's policy refuses a company outside it.
 */
export function actorOf(record: ServerTokenRecord, companyId: string | undefined): MemoryActor {
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
export function grantReaches(record: ServerTokenRecord, companyId: string): boolean {
  if (record.role === 'operator') return record.companyIds === undefined || record.companyIds.includes(companyId);
  return record.companyId === companyId;
}
