import { identifierSchema, parseInput } from '@memplane/core';
import { z } from 'zod';

/**
 * Who is calling the service. The host builds the actor from its own authentication; the
 * service never takes a company from a request body, only from the actor (or, for operators
 * and the system, from the call context, checked by the policy).
 */
export type MemoryActor =
  | {
      /** An agent of one company, acting in a run. */
      kind: 'agent';
      /** The agent's company. Every call of this actor is in this company. */
      companyId: string;
      /** The agent. */
      agentId: string;
    }
  | {
      /** A member of one company acting through the platform (a board user, the company's own API key). */
      kind: 'company';
      /** The company. Every call of this actor is in this company. */
      companyId: string;
      /** The person or key acting, for the audit trail. */
      userId?: string;
      /**
       * The member's role, as the host's authentication says. Under the default policy only an
       * `admin` may prune the operation log; without a role, a member is not an admin.
       */
      role?: 'admin' | 'member';
    }
  | {
      /** An operator of the platform, reaching the companies they are granted. */
      kind: 'operator';
      /** The operator. */
      operatorId: string;
      /** The companies this operator may reach. The default policy refuses every other company. */
      grantedCompanyIds: string[];
    }
  | {
      /** The platform itself: the heartbeat scheduler, hook emitters, background jobs. */
      kind: 'system';
      /** The component acting, such as `heartbeat` or `extraction-refresher`, for the audit trail. */
      component: string;
    };

/** The kinds of {@link MemoryActor}. */
export type MemoryActorKind = MemoryActor['kind'];

export const memoryActorSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('agent'), companyId: identifierSchema, agentId: identifierSchema }),
  z.strictObject({
    kind: z.literal('company'),
    companyId: identifierSchema,
    userId: identifierSchema.optional(),
    role: z.enum(['admin', 'member']).optional(),
  }),
  z.strictObject({
    kind: z.literal('operator'),
    operatorId: identifierSchema,
    grantedCompanyIds: z.array(identifierSchema).max(10_000),
  }),
  z.strictObject({ kind: z.literal('system'), component: identifierSchema }),
]);

/** Validates an actor; a bad one throws `MemoryValidationError` naming the field (`actor.companyId`). */
export function parseActor(actor: unknown): MemoryActor {
  return parseInput(memoryActorSchema, actor, 'actor', 'actor') as MemoryActor;
}

/** The company an actor belongs to, for agents and company members; undefined for operators and the system. */
export function ownCompanyOf(actor: MemoryActor): string | undefined {
  return actor.kind === 'agent' || actor.kind === 'company' ? actor.companyId : undefined;
}

/** A stable id of the actor for the audit trail, such as `agent:planner` or `operator:ops-1`. */
export function actorIdOf(actor: MemoryActor): string {
  switch (actor.kind) {
    case 'agent':
      return actor.agentId;
    case 'company':
      return actor.userId ?? actor.companyId;
    case 'operator':
      return actor.operatorId;
    case 'system':
      return actor.component;
  }
}

/** The actor as the audit trail stores it: kind and id, never the operator's grant list. */
export interface MemoryActorReference {
  /** The actor kind. */
  kind: MemoryActorKind;
  /** The agent id, user id, operator id or component, per {@link actorIdOf}. */
  id: string;
}

/** The actor as the audit trail stores it. */
export function referenceOf(actor: MemoryActor): MemoryActorReference {
  return { kind: actor.kind, id: actorIdOf(actor) };
}
