import { identifierSchema, parseInput } from '@memplane/core';
import { z } from 'zod';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { CaptureFiringOptions, MemoryCaptureHookReport } from '../hooks/capture-hooks';
import { pruneOperationLog } from '../retention/prune-operation-log';
import { companyOfCall, parseCallContext, type MemoryCallContext } from '../runtime/call-context';
import { createJobOperations } from '../runtime/job-operations';
import type { ServiceInternals } from '../service/service-internals';
import { scheduleExtractionPoll } from './extraction-poll-schedule';
import type { MemoryJobHandler, MemoryJobKind } from './memory-job-queue';

/** The capture hooks a queued delivery runs, with the hook id it was queued with. */
export type QueueableCaptureHooks = Record<
  'postRunCapture' | 'issueCommentCapture' | 'issueDocumentCapture' | 'manualCapture',
  (context: MemoryCallContext, input: never, options: CaptureFiringOptions) => Promise<MemoryCaptureHookReport>
>;

/** The capture hook kinds that can be queued, and the hook method that delivers each. */
export const queueableHookMethods = {
  post_run_capture: 'postRunCapture',
  issue_comment_capture: 'issueCommentCapture',
  issue_document_capture: 'issueDocumentCapture',
  manual_capture: 'manualCapture',
} as const;

const queuedHookSchema = z.object({
  hookKind: z.enum(['post_run_capture', 'issue_comment_capture', 'issue_document_capture', 'manual_capture']),
  hookId: identifierSchema,
  context: z.record(z.string(), z.unknown()),
  input: z.record(z.string(), z.unknown()),
});

const extractionPollSchema = z.object({ companyId: identifierSchema, bindingId: identifierSchema, attempt: z.number().int().min(0) });

/**
 * The handlers a worker runs. Each is safe to run twice for one job (a worker that died
 * mid-job has its job run again by another):
 * - a hook delivery whose hook id already has recorded deliveries is not delivered again;
 * - an extraction poll only reads the provider and writes what it says;
 * - a retention pass deletes what is older than its cut, which a second pass finds gone.
 */
export function createBackgroundHandlers(internals: ServiceInternals, hooks: QueueableCaptureHooks): Record<MemoryJobKind, MemoryJobHandler> {
  return {
    async hook_delivery(job) {
      const queued = parseInput(queuedHookSchema, job.payload, 'queued hook delivery', 'payload');
      const context = parseCallContext(queued.context);
      const companyId = companyOfCall(context, 'hooks.emit');
      const recorded = await internals.store.listHookDeliveries({ companyId, hookId: queued.hookId }, { limit: 1 });
      if (recorded.items.length > 0) return;
      await hooks[queueableHookMethods[queued.hookKind]](context, queued.input as never, { hookId: queued.hookId });
    },

    async extraction_poll(job) {
      const poll = parseInput(extractionPollSchema, job.payload, 'extraction poll', 'payload');
      const binding = await internals.store.getBindingById(poll.companyId, poll.bindingId);
      if (binding === undefined || !binding.enabled) return;
      const poller = createJobOperations(internals, { actor: { kind: 'system', component: 'extraction-poller' }, companyId: poll.companyId });
      try {
        await poller.refreshExtractionJobs({ bindingKey: binding.key });
      } catch (error) {
        // A policy that refuses the poller will refuse it again: report, do not retry.
        if (MemoryAccessDeniedError.isInstance(error)) return internals.reportBackgroundError(error, 'extractionPoll');
        throw error;
      }
      const pending = await internals.store.listExtractionJobs(
        { companyId: poll.companyId, bindingId: binding.id, statuses: ['queued', 'running'] },
        { limit: 1 },
      );
      if (pending.items.length > 0) await scheduleExtractionPoll(internals, binding, poll.attempt + 1);
    },

    async log_retention() {
      if (internals.retention.operationLogDays === undefined) return;
      await pruneOperationLog(internals, { actor: { kind: 'system', component: 'retention' } }, {});
    },
  };
}
