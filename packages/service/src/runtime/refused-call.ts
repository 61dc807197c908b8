import { MemoryValidationError, normalizeScope, parseInput } from '@memplane/core';
import { z } from 'zod';
import { ownCompanyOf } from '../actor/memory-actor';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import { toDecision, type MemoryServiceOperation } from '../policy/memory-policy';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryOperationType } from '../store/memory-service-records';
import { applyAgentIdentity } from './agent-identity';
import { companyOfCall, type MemoryCallContext } from './call-context';
import { runOperation } from './run-operation';

/** The operations a refused call can stand for: every runtime operation a caller can ask for. */
export type MemoryRefusableOperation = Exclude<MemoryOperationType, 'retention_prune'>;

/**
 * A call a front end of the service (an agent tool, say) refused before it reached the runtime,
 * to be logged as a failed operation. Only names are kept: the operation, the front end's name
 * for the call and the names of the refused fields, never their values.
 */
export interface ServiceRefusedCallRequest {
  /** The operation the call would have run (`query` for a search). */
  operation: MemoryRefusableOperation;
  /** The front end's name for the call, such as the tool `memory.search`. */
  via: string;
  /**
   * Why: `MEMORY_VALIDATION` for input its schema refused, `MEMORY_SCOPE_VIOLATION` for a
   * scope outside the bound one.
   */
  code: 'MEMORY_VALIDATION' | 'MEMORY_SCOPE_VIOLATION';
  /** The dotted names of the refused fields (`companyId`, `recordIds.0`); `(root)` for the input itself. At most 20. */
  fields: readonly string[];
}

const policyOperationOf: Record<MemoryRefusableOperation, MemoryServiceOperation> = {
  capture: 'capture',
  record_upsert: 'upsertRecords',
  query: 'query',
  list: 'list',
  get: 'get',
  forget: 'forget',
  correct: 'correct',
  profile: 'profile',
  extraction_job_list: 'listExtractionJobs',
  extraction_job_retry: 'retryExtractionJob',
  extraction_job_refresh: 'refreshExtractionJobs',
};

// A field name comes from the model when it named a field the schema does not know: bounded and printable, like any logged label.
// eslint-disable-next-line no-control-regex
const fieldNameSchema = z.string().min(1).max(128).regex(/^[^\u0000-\u001f\u007f-\u009f\ud800-\udfff]+$/, 'must be printable');

/** The schema a refused call request is checked with (see {@link ServiceRefusedCallRequest}). */
export const refusedCallRequestSchema = z.strictObject({
  operation: z.enum(Object.keys(policyOperationOf) as [MemoryRefusableOperation, ...MemoryRefusableOperation[]]),
  via: z.string().min(1).max(100).regex(/^[a-zA-Z0-9._-]+$/, 'must be a name such as memory.search'),
  code: z.enum(['MEMORY_VALIDATION', 'MEMORY_SCOPE_VIOLATION']),
  fields: z.array(fieldNameSchema).min(1).max(20),
});

/** Why the caller may not run `operation` in the company of the call, or undefined when it may. */
async function accessDenial(internals: ServiceInternals, context: MemoryCallContext, operation: MemoryServiceOperation): Promise<unknown> {
  try {
    const companyId = companyOfCall(context, operation);
    const scope = applyAgentIdentity(context.actor, operation, normalizeScope({ companyId }), internals.agentReadReach);
    const decision = toDecision(await internals.authorize(context.actor, operation, scope));
    return decision.allowed ? undefined : new MemoryAccessDeniedError({ operation, companyId, reason: decision.reason ?? 'refused by the policy' });
  } catch (error) {
    return error;
  }
}

/**
 * Logs a refused call as the caller: one failed `memory_operations` entry of the operation,
 * with the code, the caller's actor, client and run, and `details.refusedBy` and
 * `details.refusedFields`. Nothing reaches a binding. The entry goes under the caller's own
 * company (or the context's, for an operator or the system); without one there is nowhere to log it.
 */
export function createRefusedCallOperation(internals: ServiceInternals, context: MemoryCallContext) {
  return {
    async logRefusedCall(request: ServiceRefusedCallRequest): Promise<{ operationId: string }> {
      const valid = parseInput(refusedCallRequestSchema, request, 'refused call request');
      // The logged message names the fields only: the values the caller sent are not kept.
      const fields = valid.fields.join(', ');
      const refusal =
        valid.code === 'MEMORY_SCOPE_VIOLATION'
          ? new MemoryAccessDeniedError({
              operation: valid.via,
              companyId: ownCompanyOf(context.actor) ?? context.companyId ?? '(unknown)',
              reason: `${fields} outside the bound scope`,
            })
          : new MemoryValidationError({ target: `${valid.via} input`, issues: valid.fields.map((path) => ({ path, message: 'refused' })) });
      const denial = await accessDenial(internals, context, policyOperationOf[valid.operation]);
      let operationId = '';
      try {
        await runOperation(
          internals,
          context,
          valid.operation,
          policyOperationOf[valid.operation],
          () => {
            // A caller outside the company of the call, or one the policy refuses there, is refused as
            // that: its refusal is not logged in a company it may not reach.
            if (denial !== undefined) throw denial;
            throw refusal;
          },
          () => Promise.reject(refusal),
          { ...(denial === undefined ? { details: { refusedBy: valid.via, refusedFields: valid.fields } } : {}), onOperationId: (id) => (operationId = id) },
        );
      } catch (error) {
        // The refusal itself is the expected outcome. Anything else, the policy refusing the caller
        // this company included (which can carry the same code), is a real failure.
        if (error !== refusal) throw error;
      }
      return { operationId };
    },
  };
}
