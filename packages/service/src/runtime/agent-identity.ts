import type { MemoryScope } from '@memplane/core';
import type { MemoryActor } from '../actor/memory-actor';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';

/**
 * What an agent may read beyond its own records. An agent always acts as itself: it writes,
 * forgets and corrects only its own records, whatever the policy says about reading.
 * - `own`: only records written for the agent;
 * - `own-and-shared` (default): its own records and the company's shared ones (records with no agent);
 * - `company`: every record of its company, other agents' included.
 */
export type MemoryAgentReadReach = 'own' | 'own-and-shared' | 'company';

/** The agent identity policy (`settings.agentIdentity`). */
export interface MemoryAgentIdentityPolicy {
  /** What an agent may read. Default `own-and-shared`. */
  reads?: MemoryAgentReadReach;
}

/** The policy's default read reach. */
export const defaultAgentReadReach: MemoryAgentReadReach = 'own-and-shared';

/** The runtime operations that change records: an agent may only do them as itself, on its own records. */
const writingOperations: ReadonlySet<string> = new Set(['capture', 'upsertRecords', 'forget', 'correct']);

/** The agent a caller acts as, when the caller is an agent. */
export function actingAgentOf(actor: MemoryActor): string | undefined {
  return actor.kind === 'agent' ? actor.agentId : undefined;
}

/**
 * Applies the identity rule to the scope an agent asked for, before the policy runs. A write
 * (capture, upsertRecords) is always the agent's own: an unset `agentId` becomes the agent's,
 * another agent's is refused. A read naming another agent is refused unless the reach is
 * `company`. Forget and correct name records by handle; their ownership is checked on the
 * handles. Other actors are not changed.
 */
export function applyAgentIdentity(
  actor: MemoryActor,
  operation: string,
  scope: MemoryScope,
  reach: MemoryAgentReadReach,
): MemoryScope {
  const agentId = actingAgentOf(actor);
  if (agentId === undefined) return scope;
  if (scope.agentId !== undefined && scope.agentId !== agentId && (writingOperations.has(operation) || reach !== 'company')) {
    throw new MemoryAccessDeniedError({
      operation,
      companyId: scope.companyId,
      reason: `agent "${agentId}" asked to ${writingOperations.has(operation) ? 'act' : 'read'} as agent "${scope.agentId}"; an agent acts as itself`,
    });
  }
  if ((operation === 'capture' || operation === 'upsertRecords') && scope.agentId === undefined) return { ...scope, agentId };
  return scope;
}

/** Whether an agent may read a record placed under `recordAgentId` (undefined: a company-shared record). */
export function agentMayRead(readerAgentId: string | undefined, recordAgentId: string | undefined, reach: MemoryAgentReadReach): boolean {
  if (readerAgentId === undefined || reach === 'company') return true;
  if (recordAgentId === undefined) return reach === 'own-and-shared';
  return recordAgentId === readerAgentId;
}

/** Whether an agent may forget or correct a record placed under `recordAgentId`: only its own. */
export function agentMayModify(actorAgentId: string | undefined, recordAgentId: string | undefined): boolean {
  return actorAgentId === undefined || recordAgentId === actorAgentId;
}

/** Whether the operation changes records (an agent may only do it as itself). */
export function isWritingOperation(operation: string): boolean {
  return writingOperations.has(operation);
}
