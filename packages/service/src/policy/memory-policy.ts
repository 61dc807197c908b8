import type { MemoryScope } from '@memplane/core';
import { ownCompanyOf, type MemoryActor } from '../actor/memory-actor';

/**
 * The operations the policy decides on: the runtime operations, and the control-plane,
 * explorer, cost ledger (`costs.read`, `finance.write`) and retention (`log.prune`) surfaces.
 */
export type MemoryServiceOperation =
  | 'capture'
  | 'upsertRecords'
  | 'query'
  | 'list'
  | 'get'
  | 'forget'
  | 'correct'
  | 'profile'
  | 'listExtractionJobs'
  | 'retryExtractionJob'
  | 'refreshExtractionJobs'
  | 'hooks.emit'
  | 'bindings.read'
  | 'bindings.write'
  | 'explorer.read'
  | 'costs.read'
  | 'finance.write'
  | 'log.prune'
  | 'providers.write';

/** The runtime operations, the ones agents and their tools use. */
export const runtimeOperations: ReadonlySet<MemoryServiceOperation> = new Set([
  'capture',
  'upsertRecords',
  'query',
  'list',
  'get',
  'forget',
  'correct',
  'profile',
  'listExtractionJobs',
  'retryExtractionJob',
  'refreshExtractionJobs',
]);

/** A policy decision. `reason` is kept in the error and the operation log when the call is refused. */
export interface MemoryPolicyDecision {
  /** Whether the call may go ahead. */
  allowed: boolean;
  /** Why it may not, for the error and the log. */
  reason?: string;
}

/**
 * Decides who may do what. It is called before every operation with the actor, the operation
 * and the scope the call would run in (its `companyId` is always set). Return `true`, `false`
 * or a decision with a reason, synchronously or as a promise. Throwing counts as a refusal.
 */
export type MemoryAuthorize = (
  actor: MemoryActor,
  operation: MemoryServiceOperation,
  scope: MemoryScope,
) => boolean | MemoryPolicyDecision | Promise<boolean | MemoryPolicyDecision>;

const allowed: MemoryPolicyDecision = { allowed: true };

/** The operations only operators and the system may perform: registering or replacing a provider. */
export const operatorOperations: ReadonlySet<MemoryServiceOperation> = new Set(['providers.write']);

/**
 * The default policy:
 * - an agent reaches only its own company, and only the runtime operations (no binding
 *   changes, no explorer, no hook emission: the platform emits hooks);
 * - a company member reaches only its own company, every operation but two: pruning the
 *   operation log (`log.prune`) needs `role: 'admin'`, and registering or replacing a provider
 *   (`providers.write`) is for operators and the system only;
 * - an operator reaches only the companies in `grantedCompanyIds`, every operation;
 * - the system reaches every company.
 * Compose your own policy with it: `(actor, operation, scope) => myRule(...) && defaultAuthorize(actor, operation, scope)`.
 */
export const defaultAuthorize: MemoryAuthorize = (actor, operation, scope) => {
  switch (actor.kind) {
    case 'system':
      return allowed;
    case 'operator':
      return actor.grantedCompanyIds.includes(scope.companyId)
        ? allowed
        : { allowed: false, reason: `operator "${actor.operatorId}" is not granted this company` };
    case 'agent':
    case 'company': {
      if (ownCompanyOf(actor) !== scope.companyId) {
        return { allowed: false, reason: `the ${actor.kind} belongs to another company` };
      }
      if (actor.kind === 'agent' && !runtimeOperations.has(operation)) {
        return { allowed: false, reason: `agents may not use ${operation}` };
      }
      if (operatorOperations.has(operation)) {
        return { allowed: false, reason: `only operators may use ${operation}` };
      }
      if (operation === 'log.prune' && (actor.kind !== 'company' || actor.role !== 'admin')) {
        return { allowed: false, reason: 'only company admins and operators may prune the operation log' };
      }
      return allowed;
    }
  }
};

/** Normalises what an authorize function returned. */
export function toDecision(value: boolean | MemoryPolicyDecision): MemoryPolicyDecision {
  if (typeof value === 'boolean') return value ? allowed : { allowed: false, reason: 'refused by the policy' };
  return value.allowed ? allowed : { allowed: false, reason: value.reason ?? 'refused by the policy' };
}
