import { MemoryValidationError, parseInput } from '@memplane/core';
import type { z } from 'zod';
import { authorizeCompany } from '../policy/authorize-company';
import { parseCallContext, type MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import * as inputs from './hook-inputs';

/** The capture hooks that can be queued, and their inputs. */
export interface MemoryQueueableHookInputs {
  post_run_capture: inputs.PostRunCaptureInput;
  issue_comment_capture: inputs.IssueCommentCaptureInput;
  issue_document_capture: inputs.IssueDocumentCaptureInput;
  manual_capture: inputs.ManualCaptureInput;
}

/** A capture hook kind that can be queued. */
export type MemoryQueueableHookKind = keyof MemoryQueueableHookInputs;

/** A queued hook delivery. */
export interface MemoryQueuedHook {
  /** The hook firing's id: its deliveries are recorded under it once a worker ran it. */
  hookId: string;
  /** The queue's job id. */
  jobId: string | undefined;
  /** The company the hook fires in. */
  companyId: string;
}

const schemas: Record<MemoryQueueableHookKind, z.ZodType> = {
  post_run_capture: inputs.postRunCaptureInputSchema,
  issue_comment_capture: inputs.issueCommentCaptureInputSchema,
  issue_document_capture: inputs.issueDocumentCaptureInputSchema,
  manual_capture: inputs.manualCaptureInputSchema,
};

/**
 * Queues a capture hook instead of delivering it now: the input and the caller are checked
 * here (a bad input or a refused emission throws at once, as for a direct hook), the hook gets
 * its id, and a worker delivers it later exactly as the direct hook would, recording its
 * deliveries under that id. `pre_run_hydrate` cannot be queued: its preamble is needed before
 * the run starts.
 */
export async function enqueueHook<Kind extends MemoryQueueableHookKind>(
  internals: ServiceInternals,
  hookKind: Kind,
  context: MemoryCallContext,
  input: MemoryQueueableHookInputs[Kind],
): Promise<MemoryQueuedHook> {
  // Only the table's own keys: a kind such as `constructor`, or a value that is not a string, is no hook kind.
  const schema = typeof hookKind === 'string' && Object.hasOwn(schemas, hookKind) ? schemas[hookKind] : undefined;
  if (schema === undefined) {
    throw new MemoryValidationError({
      target: 'queued hook',
      issues: [{ path: 'hookKind', message: `must be one of ${Object.keys(schemas).join(', ')}` }],
    });
  }
  const valid = parseInput(schema, input, `${hookKind} input`, 'input') as Record<string, unknown>;
  const validContext = parseCallContext(context);
  const companyId = await authorizeCompany(internals.authorize, validContext, 'hooks.emit');
  const hookId = internals.createId('hook');
  const jobId = await internals.queue.enqueue({
    kind: 'hook_delivery',
    payload: { hookKind, hookId, context: { ...validContext, companyId } as unknown as Record<string, unknown>, input: valid },
  });
  return { hookId, jobId, companyId };
}
