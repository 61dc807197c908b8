import { identifierSchema, MemoryValidationError, parseInput, type MemoryAttributionMode } from '@memplane/core';
import { z } from 'zod';
import { memoryActorSchema, ownCompanyOf, type MemoryActor } from '../actor/memory-actor';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';

/** Who calls and on whose behalf: the caller's context, built by the host from its own authentication. */
export interface MemoryCallContext {
  /** Who is calling. For agents and company members, the company always comes from here. */
  actor: MemoryActor;
  /**
   * The company an operator or the system acts in (required for them). Agents and company
   * members may leave it out; if they set it, it must be their own company.
   */
  companyId?: string;
  /** The heartbeat run the calls belong to; logged on every operation and used for cost attribution. */
  heartbeatRunId?: string;
  /** A cost event the host already recorded for this work, logged on every operation. */
  costEventId?: string;
  /**
   * How to attribute the cost of these calls. Default: what the provider reports, else
   * `included_in_run` inside a heartbeat run, else `untracked`.
   */
  attributionMode?: MemoryAttributionMode;
  /**
   * The program the call came through, as it names itself: an MCP client (`claude-code`), an
   * app. Logged on every operation as `details.client`, beside the actor. It is a label for the
   * audit trail, never an identity: the actor alone decides what the call may reach.
   */
  client?: { name: string; version?: string };
}

export const memoryCallContextSchema = z.strictObject({
  actor: memoryActorSchema,
  companyId: identifierSchema.optional(),
  heartbeatRunId: identifierSchema.optional(),
  costEventId: identifierSchema.optional(),
  attributionMode: z.enum(['billed_directly', 'included_in_run', 'external_invoice', 'untracked']).optional(),
  client: z.strictObject({ name: identifierSchema, version: identifierSchema.optional() }).optional(),
});

/** Validates a call context; a bad one throws `MemoryValidationError` naming the field (`context.actor.kind`). */
export function parseCallContext(context: unknown): MemoryCallContext {
  return parseInput(memoryCallContextSchema, context, 'call context', 'context') as MemoryCallContext;
}

/**
 * The company a call runs in. Agents and company members are always in their own company:
 * naming another one, in the context, the scope or the source, is refused with
 * `MemoryAccessDeniedError` (and logged under their own company). Operators and the system
 * must name the company in the context; the policy then decides.
 */
export function companyOfCall(
  context: MemoryCallContext,
  operation: string,
  requestedCompanyIds: ReadonlyArray<string | undefined> = [],
): string {
  const own = ownCompanyOf(context.actor);
  const requested = [context.companyId, ...requestedCompanyIds].filter((value): value is string => value !== undefined);
  if (own !== undefined) {
    const foreign = requested.find((companyId) => companyId !== own);
    if (foreign !== undefined) {
      throw new MemoryAccessDeniedError({
        operation,
        companyId: own,
        reason: `the ${context.actor.kind} asked for company "${foreign}"; it may only reach its own company`,
      });
    }
    return own;
  }
  const [company] = requested;
  if (company === undefined) {
    throw new MemoryValidationError({
      target: 'call context',
      issues: [{ path: 'context.companyId', message: `is required when the actor is ${context.actor.kind === 'operator' ? 'an operator' : 'the system'}` }],
    });
  }
  const conflicting = requested.find((companyId) => companyId !== company);
  if (conflicting !== undefined) {
    throw new MemoryAccessDeniedError({
      operation,
      companyId: company,
      reason: `the request names company "${conflicting}" but the call context is for "${company}"`,
    });
  }
  return company;
}
