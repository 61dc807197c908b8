import { MemoryError, MemoryTimeoutError } from '@memplane/core';
import type { PreRunHydration } from '@memplane/service';
import type { MemplaneMiddlewareEvent } from './middleware-events';
import type { MemplaneHookHost, ResolvedMiddlewareOptions } from './middleware-options';
import { hydrationBlockOf, turnOf, withHydrationBlock, type ModelCallOptions, type ModelPromptMessage } from './prompt-parts';

/** What one turn's recall gave. It never rejects: a failure is an outcome too. */
interface RecallOutcome {
  block: ModelPromptMessage | undefined;
  hookId?: string;
  operationId?: string;
  snippets: number;
  truncated: boolean;
  failure?: MemoryError;
}

const asMemoryError = (error: unknown): MemoryError =>
  MemoryError.isInstance(error) ? error : new MemoryError('MEMORY_API_CALL', { message: error instanceof Error ? error.message : String(error), cause: error });

/** Keeps whole lines from the start while the tokenizer says they fit. */
function fitTokens(preamble: string, maxTokens: number, countTokens: ((text: string) => number) | undefined): { text: string; cut: boolean } {
  if (countTokens === undefined || countTokens(preamble) <= maxTokens) return { text: preamble, cut: false };
  const lines = preamble.split('\n');
  while (lines.length > 1 && countTokens(lines.join('\n')) > maxTokens) lines.pop();
  // The header alone says nothing.
  return { text: lines.length > 1 ? lines.join('\n') : '', cut: true };
}

function outcomeOf(hydration: PreRunHydration, hydrate: Exclude<ResolvedMiddlewareOptions['hydrate'], false>): RecallOutcome {
  const builtIn = hydration.deliveries.find((delivery) => delivery.receiver.startsWith('binding:'));
  if (builtIn !== undefined && builtIn.status !== 'succeeded') {
    const failure =
      builtIn.status === 'timed_out'
        ? new MemoryTimeoutError({ timeoutMs: hydrate.timeoutMs, operation: 'pre_run_hydrate' })
        : new MemoryError('MEMORY_API_CALL', { message: `pre_run_hydrate ${builtIn.status}: ${builtIn.error ?? 'no reason given'}` });
    return { block: undefined, hookId: hydration.hookId, snippets: 0, truncated: false, failure };
  }
  const fitted = fitTokens(hydration.preamble, hydrate.maxTokens, hydrate.countTokens);
  return {
    block: fitted.text === '' ? undefined : hydrationBlockOf(fitted.text),
    hookId: hydration.hookId,
    ...(hydration.operationId === undefined ? {} : { operationId: hydration.operationId }),
    snippets: fitted.text === '' ? 0 : hydration.bundle.snippets.length,
    truncated: hydration.truncated || fitted.cut,
  };
}

/**
 * The hydrate half of the middleware: one `pre_run_hydrate` per turn, shared by the turn's
 * tool-loop steps, raced against the timeout. Whatever happens the call goes on, with the
 * block when recall answered in time and without it otherwise.
 */
export function createTurnHydration(host: MemplaneHookHost, options: ResolvedMiddlewareOptions, emit: (event: MemplaneMiddlewareEvent) => void) {
  const hydrate = options.hydrate;
  const cache = new Map<string, { recall: Promise<RecallOutcome>; at: number }>();
  const maximumTurns = 16;

  const recall = (query: string): Promise<RecallOutcome> => {
    const { agent } = options;
    if (hydrate === false) return Promise.resolve({ block: undefined, snippets: 0, truncated: false });
    const context = { actor: options.hookActor, companyId: agent.companyId, heartbeatRunId: agent.runId, client: options.client };
    return host.hooks
      .preRunHydrate(context, {
        agentId: agent.agentId,
        // The hook takes up to 10,000 characters; the end of a long message is usually the question.
        query: query.length <= 10_000 ? query : query.slice(-10_000),
        heartbeatRunId: agent.runId,
        ...(hydrate.reach === 'agent' ? { scope: { agentId: agent.agentId } } : {}),
        limits: { maxCharacters: hydrate.maxTokens * 4 },
        // The service's own deadline: a hanging provider leaves a failed MEMORY_TIMEOUT operation.
        timeoutMs: hydrate.timeoutMs,
      })
      .then((hydration) => outcomeOf(hydration, hydrate), (error: unknown) => ({ block: undefined, snippets: 0, truncated: false, failure: asMemoryError(error) }));
  };

  const recallFor = (key: string, query: string): { recall: Promise<RecallOutcome>; cached: boolean } => {
    const now = Date.now();
    const entry = cache.get(key);
    if (entry !== undefined && hydrate !== false && now - entry.at <= hydrate.cacheTtlMs) return { recall: entry.recall, cached: true };
    const fresh = { recall: recall(query), at: now };
    cache.delete(key);
    cache.set(key, fresh);
    // Oldest first: Map keeps insertion order.
    for (const oldest of cache.keys()) {
      if (cache.size <= maximumTurns) break;
      cache.delete(oldest);
    }
    return { recall: fresh.recall, cached: false };
  };

  return async function transformParams(params: ModelCallOptions): Promise<ModelCallOptions> {
    if (hydrate === false) return params;
    const turn = turnOf(params.prompt);
    if (turn === undefined) return { ...params, prompt: withHydrationBlock(params.prompt, undefined) };
    const { recall: pending, cached } = recallFor(turn.key, turn.userText);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), hydrate.timeoutMs);
    });
    const outcome = await Promise.race([pending, timedOut]);
    clearTimeout(timer);
    if (outcome === undefined) {
      emit({
        type: 'hydration-timeout',
        level: 'warning',
        timeoutMs: hydrate.timeoutMs,
        error: new MemoryTimeoutError({ timeoutMs: hydrate.timeoutMs, operation: 'pre_run_hydrate' }),
      });
      return { ...params, prompt: withHydrationBlock(params.prompt, undefined) };
    }
    if (outcome.failure !== undefined) {
      emit({ type: 'hydration-failed', level: 'warning', ...(outcome.hookId === undefined ? {} : { hookId: outcome.hookId }), error: outcome.failure });
    } else {
      emit({
        type: 'hydrated',
        level: 'info',
        hookId: outcome.hookId ?? '',
        ...(outcome.operationId === undefined ? {} : { operationId: outcome.operationId }),
        snippets: outcome.snippets,
        truncated: outcome.truncated,
        cached,
      });
    }
    return { ...params, prompt: withHydrationBlock(params.prompt, outcome.block) };
  };
}
