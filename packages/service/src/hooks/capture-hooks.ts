import {
  normalizeScope,
  parseInput,
  type MemoryCaptureResult,
  type MemoryHookKind,
  type MemoryScope,
  type MemorySourcePayload,
  type MemorySourceRef,
} from '@memplane/core';
import type { MemoryBinding, MemoryBindingHookSettings } from '../bindings/memory-binding';
import { resolveBinding } from '../bindings/resolve-binding';
import type { MemoryCallContext } from '../runtime/call-context';
import { createRecordOperations } from '../runtime/record-operations';
import type { ServiceInternals } from '../service/service-internals';
import { deliverWithTimeout, deliveryBackstopMs, isImmediatelyRetryable } from './deliver-with-timeout';
import {
  deliveryEntry,
  notifySubscribers,
  recordDeliveries,
  startFiring,
  type MemoryHookReport,
  type SubscriberTable,
} from './hook-firing';
import * as inputs from './hook-inputs';
import { deliveryKeyMetadataField, deliveryKeyOf, earlierWrite } from './idempotent-capture';
import { thrownMessage } from '../errors/thrown-message';

/** The report of a capture hook, with what the binding's provider returned when it ran. */
export interface MemoryCaptureHookReport extends MemoryHookReport {
  /** The capture result of the built-in delivery, when it succeeded. */
  capture?: MemoryCaptureResult;
}

interface CaptureSpec {
  hookKind: MemoryHookKind;
  /** The binding's opt-in flag; undefined means always on (`manual_capture`). */
  optIn: keyof MemoryBindingHookSettings | undefined;
  resolutionAgentId: string | undefined;
  heartbeatRunId: string | undefined;
  scope: Omit<MemoryScope, 'companyId'>;
  source: Omit<MemorySourceRef, 'companyId'>;
  payload: MemorySourcePayload;
  mode: 'capture_residue' | 'capture_record';
  metadata: Record<string, unknown> | undefined;
  /** The firing's id when it was decided before (a queued delivery). */
  hookId?: string;
}

/** How a capture hook fires: now, or as a queued delivery that already has its hook id. */
export interface CaptureFiringOptions {
  /** The hook id the delivery was queued with. */
  hookId?: string;
}

const defined = <Value extends object>(value: Value): Value =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Value;

async function fireCapture(
  internals: ServiceInternals,
  subscribers: SubscriberTable,
  context: MemoryCallContext,
  spec: CaptureSpec,
): Promise<MemoryCaptureHookReport> {
  const firing = await startFiring(internals, context, spec.hookKind, {
    actorAgentId: spec.resolutionAgentId,
    heartbeatRunId: spec.heartbeatRunId,
    ...(spec.hookId === undefined ? {} : { hookId: spec.hookId }),
  });
  const { companyId, hook } = firing;
  const scope = normalizeScope({ ...spec.scope, companyId });
  const source = { ...spec.source, companyId } as MemorySourceRef;
  let binding: MemoryBinding | undefined;
  let resolutionError: unknown;
  try {
    binding = (await resolveBinding(internals.store, companyId, spec.resolutionAgentId)).binding;
  } catch (error) {
    resolutionError = error;
  }

  const report: MemoryCaptureHookReport = { hookId: hook.hookId, hookKind: hook.hookKind, companyId, deliveries: [] };
  if (binding === undefined) {
    const message = thrownMessage(resolutionError);
    report.deliveries.push(deliveryEntry(internals, firing, 'binding:(none)', { status: 'failed', attempts: 1, error: message, latencyMs: 0 }));
  } else if (spec.optIn !== undefined && !binding.hooks[spec.optIn]) {
    report.bindingKey = binding.key;
    report.deliveries.push(
      deliveryEntry(
        internals,
        firing,
        `binding:${binding.key}`,
        { status: 'skipped', attempts: 0, error: `binding "${binding.key}" has ${spec.optIn} off`, latencyMs: 0 },
        { bindingId: binding.id },
      ),
    );
  } else {
    report.bindingKey = binding.key;
    // The hook's timeout is the operation's deadline; the delivery's own timer only backs it up.
    const records = createRecordOperations(internals, firing.context, {
      deadlineMs: internals.hookTimeoutMs,
      // The delivery links the operation even when it failed or timed out.
      onOperationId: (operationId) => (report.operationId = operationId),
    });
    // A queued delivery (it has its hook id already) may run twice: its write carries an idempotency key.
    const deliveryKey = spec.hookId === undefined ? undefined : deliveryKeyOf(spec.hookId, binding);
    const metadata = deliveryKey === undefined ? spec.metadata : { ...spec.metadata, [deliveryKeyMetadataField]: deliveryKey };
    const request = {
      bindingKey: binding.key,
      scope,
      source,
      payload: spec.payload,
      hook,
      mode: spec.mode,
      ...(metadata === undefined ? {} : { metadata }),
    };
    const written =
      deliveryKey === undefined
        ? undefined
        : await earlierWrite(internals, records, binding, scope, deliveryKey).catch((error: unknown) => {
            // The store or provider could not say: capture (at least once) rather than lose the capture.
            internals.reportBackgroundError(error, 'claimDelivery');
            return undefined;
          });
    const outcome = written !== undefined
      ? { status: 'skipped' as const, attempts: 0, latencyMs: 0, error: 'written by an earlier run of this queued delivery', value: undefined }
      : await deliverWithTimeout(async () => {
          const captured = await records.capture(request);
          // Recorded before the job is acknowledged: a second run of the job finds it and writes nothing.
          if (deliveryKey !== undefined) {
            const recordIds = (captured.records ?? []).map((handle) => handle.providerRecordId);
            await internals.store.completeDelivery(binding.companyId, deliveryKey, { operationId: captured.operationId, recordIds }, internals.now());
          }
          return captured;
        }, {
      timeoutMs: internals.hookTimeoutMs + deliveryBackstopMs,
      maxAttempts: internals.hookMaxAttempts,
      receiver: `binding:${binding.key}`,
      shouldRetry: isImmediatelyRetryable,
    });
    if (outcome.value !== undefined) {
      const { operationId, bindingKey: _key, providerId: _provider, ...capture } = outcome.value;
      report.operationId = operationId;
      report.capture = capture;
    } else if (written?.operationId !== undefined) {
      report.operationId = written.operationId;
    }
    report.deliveries.push(
      deliveryEntry(internals, firing, `binding:${binding.key}`, outcome, {
        bindingId: binding.id,
        ...(report.operationId === undefined ? {} : { operationId: report.operationId }),
      }),
    );
  }

  report.deliveries.push(
    ...(await notifySubscribers(internals, subscribers, firing, {
      hook,
      companyId,
      scope,
      source,
      payload: spec.payload,
      ...(binding === undefined ? {} : { bindingKey: binding.key, providerId: binding.providerId }),
    })),
  );
  await recordDeliveries(internals, report.deliveries);
  // A subscriber's error is its own text: it is redacted on the way out as it is on the way into the store.
  return internals.redactor.redact(report);
}

/** The four capture hooks. Each validates its input, then never throws for a failing receiver. */
export function createCaptureHooks(internals: ServiceInternals, subscribers: SubscriberTable) {
  return {
    /** `post_run_capture`, when the agent's binding has it on. */
    async postRunCapture(context: MemoryCallContext, input: inputs.PostRunCaptureInput, options: CaptureFiringOptions = {}): Promise<MemoryCaptureHookReport> {
      const valid = parseInput(inputs.postRunCaptureInputSchema, input, 'post_run_capture input', 'input');
      return fireCapture(internals, subscribers, context, {
        hookKind: 'post_run_capture',
        optIn: 'postRunCapture',
        resolutionAgentId: valid.agentId,
        heartbeatRunId: valid.heartbeatRunId,
        scope: defined({ agentId: valid.agentId, runId: valid.heartbeatRunId, issueId: valid.issueId, projectId: valid.projectId }),
        source: defined({ kind: 'run' as const, runId: valid.heartbeatRunId, issueId: valid.issueId }),
        payload: defined({ text: valid.output.text, object: valid.output.object, mimeType: valid.output.mimeType }),
        mode: 'capture_residue',
        metadata: valid.metadata,
        hookId: options.hookId,
      });
    },

    /** `issue_comment_capture`, when the binding has it on. */
    async issueCommentCapture(context: MemoryCallContext, input: inputs.IssueCommentCaptureInput, options: CaptureFiringOptions = {}): Promise<MemoryCaptureHookReport> {
      const valid = parseInput(inputs.issueCommentCaptureInputSchema, input, 'issue_comment_capture input', 'input');
      return fireCapture(internals, subscribers, context, {
        hookKind: 'issue_comment_capture',
        optIn: 'issueCommentCapture',
        resolutionAgentId: valid.authorAgentId,
        heartbeatRunId: valid.heartbeatRunId,
        scope: defined({ issueId: valid.issueId, projectId: valid.projectId, agentId: valid.authorAgentId }),
        source: { kind: 'issue_comment', issueId: valid.issueId, commentId: valid.commentId },
        payload: { text: valid.body, mimeType: 'text/markdown' },
        mode: 'capture_residue',
        metadata: valid.metadata,
        hookId: options.hookId,
      });
    },

    /** `issue_document_capture`, when the binding has it on. */
    async issueDocumentCapture(context: MemoryCallContext, input: inputs.IssueDocumentCaptureInput, options: CaptureFiringOptions = {}): Promise<MemoryCaptureHookReport> {
      const valid = parseInput(inputs.issueDocumentCaptureInputSchema, input, 'issue_document_capture input', 'input');
      return fireCapture(internals, subscribers, context, {
        hookKind: 'issue_document_capture',
        optIn: 'issueDocumentCapture',
        resolutionAgentId: valid.authorAgentId,
        heartbeatRunId: undefined,
        scope: defined({ issueId: valid.issueId, projectId: valid.projectId, agentId: valid.authorAgentId }),
        source: { kind: 'issue_document', issueId: valid.issueId, documentKey: valid.documentKey },
        payload: defined({ text: valid.text, object: valid.object, mimeType: valid.mimeType }),
        mode: 'capture_residue',
        metadata: valid.metadata,
        hookId: options.hookId,
      });
    },

    /** `manual_capture`: always on. */
    async manualCapture(context: MemoryCallContext, input: inputs.ManualCaptureInput, options: CaptureFiringOptions = {}): Promise<MemoryCaptureHookReport> {
      const valid = parseInput(inputs.manualCaptureInputSchema, input, 'manual_capture input', 'input');
      return fireCapture(internals, subscribers, context, {
        hookKind: 'manual_capture',
        optIn: undefined,
        resolutionAgentId: valid.agentId,
        heartbeatRunId: undefined,
        scope: defined({ agentId: valid.agentId, issueId: valid.issueId, projectId: valid.projectId }),
        source: valid.externalRef === undefined
          ? defined({ kind: 'manual_note' as const, issueId: valid.issueId })
          : defined({ kind: 'external_document' as const, issueId: valid.issueId, externalRef: valid.externalRef }),
        payload: { text: valid.text },
        mode: valid.mode ?? 'capture_record',
        metadata: valid.metadata,
        hookId: options.hookId,
      });
    },
  };
}
