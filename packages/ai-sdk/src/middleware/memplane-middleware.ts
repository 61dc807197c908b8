import { randomUUID } from 'node:crypto';
import type { LanguageModelMiddleware } from 'ai';
import { emitter } from './middleware-events';
import { resolveMiddlewareOptions, type MemplaneHookHost, type MemplaneMiddlewareOptions } from './middleware-options';
import { createTurnCapture } from './turn-capture';
import { createTurnHydration } from './turn-hydration';
import { unifiedFinishReason, type ModelCallOutput } from './turn-transcript';

type StreamResult = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware['wrapStream']>>[0]['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
type GenerateResult = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['doGenerate']>>;

/** The middleware, plus what a host needs to shut down or test without sleeping. */
export interface MemplaneMiddleware extends LanguageModelMiddleware {
  /** Resolves when every capture queued so far has been delivered and reported. Call it before exit. */
  flush(): Promise<void>;
  /** Captures in flight. */
  readonly pendingCaptures: number;
  /** The run id captured turns carry (`options.agent.runId`, or the one made for this middleware). */
  readonly runId: string;
}

function outputOfGenerate(result: GenerateResult): ModelCallOutput {
  const texts: string[] = [];
  const toolCalls: ModelCallOutput['toolCalls'] = [];
  for (const part of result.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'tool-call') toolCalls.push({ toolName: part.toolName, input: part.input });
  }
  return { text: texts.join(''), toolCalls, finishReason: unifiedFinishReason(result.finishReason) };
}

/**
 * Memory for any AI SDK language model (`wrapLanguageModel({ model, middleware })`):
 * - **hydrate**: before each turn, `pre_run_hydrate` recalls what the agent's binding holds for
 *   the user's last message, and the preamble goes into the prompt once, as a marked system
 *   message, within a token cap. A turn's tool-loop steps reuse it. If recall is slower than
 *   `hydrate.timeoutMs` or fails, the model is called without it and `onEvent` gets a warning.
 * - **capture**: each finished turn (the user's message, optionally the tool calls, and the
 *   reply; generated or streamed) goes to `post_run_capture` with its provenance (the run, the
 *   model), in the background. A capture never breaks a reply, and none is lost silently: a
 *   failed one is a failed operation in the service's log and a `capture-failed` event.
 *
 * @example
 * ```ts
 * const memory = memplaneMiddleware(service, { agent: { companyId: 'acme', agentId: 'planner', runId: 'run-7' } });
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: memory });
 * await generateText({ model, prompt: 'When do we deploy?' });
 * await memory.flush(); // before the process exits
 * ```
 */
export function memplaneMiddleware(service: MemplaneHookHost, options: MemplaneMiddlewareOptions): MemplaneMiddleware {
  const resolved = resolveMiddlewareOptions(options, () => `ai-${randomUUID()}`);
  const emit = emitter(resolved.onEvent);
  const transformParams = createTurnHydration(service, resolved, emit);
  const capture = createTurnCapture(service, resolved, emit);

  return {
    // ai@6 requires it; ai@7 accepts a middleware that declares v3, so nothing else here is version-specific.
    specificationVersion: 'v3',
    transformParams: async ({ params }) => transformParams(params),
    wrapGenerate: async ({ doGenerate, params, model }) => {
      const result = await doGenerate();
      await capture.submit(params, model, outputOfGenerate(result));
      return result;
    },
    wrapStream: async ({ doStream, params, model }) => {
      const result = await doStream();
      if (resolved.capture === false) return result;
      const output: ModelCallOutput = { text: '', toolCalls: [], finishReason: undefined };
      const stream = result.stream.pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          transform(part, controller) {
            if (part.type === 'text-delta') output.text += part.delta;
            else if (part.type === 'tool-call') output.toolCalls.push({ toolName: part.toolName, input: part.input });
            else if (part.type === 'finish') output.finishReason = unifiedFinishReason(part.finishReason);
            controller.enqueue(part);
          },
          // The stream ends for the reader first; the capture is queued, not awaited, unless the queue is full.
          flush: () => capture.submit(params, model, output),
        }),
      );
      return { ...result, stream };
    },
    flush: () => capture.flush(),
    get pendingCaptures() {
      return capture.pendingCount;
    },
    runId: resolved.agent.runId,
  };
}
