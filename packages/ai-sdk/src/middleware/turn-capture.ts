import { MemoryError } from '@memplane/core';
import type { MemplaneMiddlewareEvent } from './middleware-events';
import type { MemplaneHookHost, ResolvedMiddlewareOptions } from './middleware-options';
import type { ModelCallOptions } from './prompt-parts';
import { transcriptOf, type ModelCallOutput } from './turn-transcript';

/** The model that answered, for provenance. */
export interface AnsweringModel {
  provider: string;
  modelId: string;
}

const asMemoryError = (error: unknown): MemoryError =>
  MemoryError.isInstance(error) ? error : new MemoryError('MEMORY_API_CALL', { message: error instanceof Error ? error.message : String(error), cause: error });

/**
 * The capture half of the middleware: finished turns go to `post_run_capture` in the
 * background, each isolated from the reply, each reported (captured, skipped or failed), none
 * dropped: past `maxPending` a new capture waits for one in flight instead.
 */
export function createTurnCapture(host: MemplaneHookHost, options: ResolvedMiddlewareOptions, emit: (event: MemplaneMiddlewareEvent) => void) {
  const capture = options.capture;
  const pending = new Set<Promise<void>>();

  const deliver = async (text: string, model: AnsweringModel, output: ModelCallOutput): Promise<void> => {
    if (capture === false) return;
    const { agent } = options;
    const context = { actor: options.hookActor, companyId: agent.companyId, heartbeatRunId: agent.runId, client: options.client };
    const input = {
      agentId: agent.agentId,
      heartbeatRunId: agent.runId,
      ...(agent.issueId === undefined ? {} : { issueId: agent.issueId }),
      ...(agent.projectId === undefined ? {} : { projectId: agent.projectId }),
      output: { text, mimeType: 'text/plain' },
      metadata: {
        ...capture.metadata,
        capturedBy: '@memplane/ai-sdk',
        modelProvider: model.provider,
        modelId: model.modelId,
        ...(output.finishReason === undefined ? {} : { finishReason: output.finishReason }),
      },
    };
    try {
      if (capture.delivery === 'queue') {
        const queued = await host.hooks.enqueue('post_run_capture', context, input);
        emit({ type: 'capture-queued', level: 'info', hookId: queued.hookId, ...(queued.jobId === undefined ? {} : { jobId: queued.jobId }) });
        return;
      }
      const report = await host.hooks.postRunCapture(context, input);
      const builtIn = report.deliveries.find((delivery) => delivery.receiver.startsWith('binding:'));
      const operation = report.operationId === undefined ? {} : { operationId: report.operationId };
      if (builtIn?.status === 'succeeded') {
        emit({ type: 'captured', level: 'info', hookId: report.hookId, ...operation });
      } else if (builtIn?.status === 'skipped') {
        emit({ type: 'capture-skipped', level: 'warning', hookId: report.hookId, reason: builtIn.error ?? 'skipped by the service' });
      } else {
        const reason = builtIn === undefined ? 'no binding received it' : `${builtIn.status}: ${builtIn.error ?? 'no reason given'}`;
        emit({
          type: 'capture-failed',
          level: 'error',
          hookId: report.hookId,
          ...operation,
          error: new MemoryError('MEMORY_API_CALL', { message: `post_run_capture ${reason}` }),
        });
      }
    } catch (error) {
      // Refused before any delivery (policy, validation): the reply stands, the host is told.
      emit({ type: 'capture-failed', level: 'error', error: asMemoryError(error) });
    }
  };

  return {
    /**
     * Queues the capture of one model call, when it ends a turn (a step that asks for tools is
     * followed by another step, which captures). Resolves once queued; rejects never.
     */
    async submit(params: ModelCallOptions, model: AnsweringModel, output: ModelCallOutput): Promise<void> {
      if (capture === false || output.finishReason === 'tool-calls') return;
      const text = transcriptOf(params.prompt, output, capture.includeToolCalls, capture.assistantTurns === 'keep');
      if (text === '') return;
      while (pending.size >= capture.maxPending) await Promise.race(pending);
      const task = deliver(text.length <= 1_000_000 ? text : text.slice(0, 1_000_000), model, output).finally(() => pending.delete(task));
      pending.add(task);
    },
    /** Resolves when every capture queued so far (and any queued meanwhile) has been delivered and reported. */
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
    /** Captures in flight. */
    get pendingCount(): number {
      return pending.size;
    },
  };
}
