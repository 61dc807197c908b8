import { MemoryValidationError, type MemoryHookKind } from '@memplane/core';
import type { MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import { createCaptureHooks, type MemoryCaptureHookReport } from './capture-hooks';
import { enqueueHook, type MemoryQueuedHook, type MemoryQueueableHookInputs, type MemoryQueueableHookKind } from './enqueue-hook';
import { parseSubscriber, type MemoryHookSubscriber, type SubscriberTable } from './hook-firing';
import { assertQueueOutlivesDeliveries } from '../queue/queue-expiry-check';
import type {
  IssueCommentCaptureInput,
  IssueDocumentCaptureInput,
  ManualCaptureInput,
  PostRunCaptureInput,
  PreRunHydrateInput,
} from './hook-inputs';
import { preRunHydrate, type PreRunHydration } from './pre-run-hydrate';

/** The hook kinds of the plan. */
export const memoryHookKinds: readonly MemoryHookKind[] = [
  'pre_run_hydrate',
  'post_run_capture',
  'issue_comment_capture',
  'issue_document_capture',
  'manual_capture',
];

/**
 * The hook registry and the five hooks. The platform emits hooks (as the system or a company
 * member); the built-in delivery goes to the resolved binding (capture hooks only where the
 * binding opted in; `manual_capture` always), and every subscriber gets its own delivery.
 * Every delivery is recorded with its status, attempts and error.
 */
export interface MemoryHooks {
  /** Subscribes to one or more hook kinds; returns the function that unsubscribes. */
  subscribe(hookKinds: MemoryHookKind | MemoryHookKind[], subscriber: MemoryHookSubscriber): () => void;
  /** Recalls context for an agent's run and returns the bundle and a ready preamble. */
  preRunHydrate(context: MemoryCallContext, input: PreRunHydrateInput): Promise<PreRunHydration>;
  /** Captures a finished run's output. */
  postRunCapture(context: MemoryCallContext, input: PostRunCaptureInput): Promise<MemoryCaptureHookReport>;
  /** Captures an issue comment. */
  issueCommentCapture(context: MemoryCallContext, input: IssueCommentCaptureInput): Promise<MemoryCaptureHookReport>;
  /** Captures an issue document. */
  issueDocumentCapture(context: MemoryCallContext, input: IssueDocumentCaptureInput): Promise<MemoryCaptureHookReport>;
  /** Captures a note handed to memory on purpose. */
  manualCapture(context: MemoryCallContext, input: ManualCaptureInput): Promise<MemoryCaptureHookReport>;
  /**
   * Queues a capture hook for a worker instead of delivering it now (checked now, delivered
   * later under the returned hook id). With the default in-process queue it runs in the
   * background of this process; with a durable queue, in whichever worker takes it.
   */
  enqueue<Kind extends MemoryQueueableHookKind>(
    hookKind: Kind,
    context: MemoryCallContext,
    input: MemoryQueueableHookInputs[Kind],
  ): Promise<MemoryQueuedHook>;
}

/** Creates the hooks of one service. */
export function createMemoryHooks(internals: ServiceInternals): MemoryHooks {
  const subscribers: SubscriberTable = new Map();
  return {
    subscribe(hookKinds, subscriber) {
      const refusal = (cause?: unknown) =>
        new MemoryValidationError({
          target: 'hook subscription',
          issues: [{ path: 'hookKinds', message: `must name hook kinds among ${memoryHookKinds.join(', ')}` }],
          cause,
        });
      let kinds: unknown[];
      try {
        // A copy, read once: a list that throws while it is read (a getter, a proxy) is refused.
        kinds = Array.isArray(hookKinds) ? [...(hookKinds as unknown[])] : [hookKinds];
      } catch (cause) {
        throw refusal(cause);
      }
      const unknown = kinds.find((kind) => !(memoryHookKinds as readonly unknown[]).includes(kind));
      if (kinds.length === 0 || unknown !== undefined) throw refusal();
      const valid = parseSubscriber(subscriber);
      // A subscriber slower than the queue's expiry would have its queued deliveries run twice.
      assertQueueOutlivesDeliveries(
        internals.queue.jobExpiryMs,
        { hookTimeoutMs: internals.hookTimeoutMs, maxAttempts: internals.hookMaxAttempts, subscriberTimeoutMs: valid.timeoutMs ?? internals.hookTimeoutMs },
        `Give subscriber "${valid.name}" a smaller timeoutMs, or raise the queue's expiry.`,
      );
      const checkedKinds = kinds as MemoryHookKind[];
      for (const kind of checkedKinds) subscribers.set(kind, [...(subscribers.get(kind) ?? []), valid]);
      return () => {
        for (const kind of checkedKinds) subscribers.set(kind, (subscribers.get(kind) ?? []).filter((entry) => entry !== valid));
      };
    },
    preRunHydrate: (context, input) => preRunHydrate(internals, subscribers, context, input),
    ...createCaptureHooks(internals, subscribers),
    enqueue: (hookKind, context, input) => enqueueHook(internals, hookKind, context, input),
  };
}
