import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import { companyOfCall, type MemoryCallContext } from '../runtime/call-context';
import { toDecision, type MemoryAuthorize, type MemoryServiceOperation } from './memory-policy';
import { thrownMessage } from '../errors/thrown-message';

/**
 * The company a control-plane or explorer call runs in, after the company rule and the
 * policy. Throws `MemoryAccessDeniedError` when either refuses.
 */
export async function authorizeCompany(
  authorize: MemoryAuthorize,
  context: MemoryCallContext,
  operation: MemoryServiceOperation,
  requestedCompanyIds: ReadonlyArray<string | undefined> = [],
): Promise<string> {
  const companyId = companyOfCall(context, operation, requestedCompanyIds);
  let decision;
  try {
    decision = toDecision(await authorize(context.actor, operation, { companyId }));
  } catch (cause) {
    // A policy that throws refuses.
    decision = { allowed: false, reason: `the policy failed: ${thrownMessage(cause)}` };
  }
  if (!decision.allowed) {
    throw new MemoryAccessDeniedError({ operation, companyId, reason: decision.reason ?? 'refused by the policy' });
  }
  return companyId;
}
