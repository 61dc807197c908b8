import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import type { MemplaneMiddlewareEvent } from '../middleware/middleware-events';
import type { ModelCallOptions } from '../middleware/prompt-parts';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Content = GenerateResult['content'][number];

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };

/** A generate result with the given content; `tool-calls` when it calls a tool. */
export function generateResult(content: Content[]): GenerateResult {
  const callsTool = content.some((part) => part.type === 'tool-call');
  return { content, finishReason: { unified: callsTool ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
}

/** A model that answers each call with the next of `replies` (text, or content parts). */
export function scriptedModel(replies: Array<string | Content[]>): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doGenerate: async () => {
      const reply = replies[Math.min(next, replies.length - 1)] ?? '';
      next += 1;
      return generateResult(typeof reply === 'string' ? [{ type: 'text', text: reply }] : reply);
    },
  });
}

/** A model that streams `deltas` as one text part. */
export function streamingModel(deltas: string[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-stream',
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't1' },
          ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
          { type: 'text-end' as const, id: 't1' },
          { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: undefined }, usage },
        ],
      }),
    }),
  });
}

/** A model whose first stream calls `toolName` and whose second streams `text`. */
export function streamingToolModel(toolName: string, input: unknown, text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-stream',
    doStream: [
      {
        stream: simulateReadableStream({
          chunks: [
            { type: 'tool-call' as const, toolCallId: 's1', toolName, input: JSON.stringify(input) },
            { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage },
          ],
        }),
      },
      {
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start' as const, id: 't1' },
            { type: 'text-delta' as const, id: 't1', delta: text },
            { type: 'text-end' as const, id: 't1' },
            { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: undefined }, usage },
          ],
        }),
      },
    ],
  });
}

/** A tool call the model makes. */
export const toolCall = (toolName: string, input: unknown, toolCallId = `call-${toolName}`): Content => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/** The system messages a call's prompt carried. */
export const systemTexts = (call: ModelCallOptions | undefined): string[] =>
  (call?.prompt ?? []).flatMap((message) => (message.role === 'system' ? [message.content] : []));

/** Collects middleware events. */
export function eventLog(): { events: MemplaneMiddlewareEvent[]; onEvent: (event: MemplaneMiddlewareEvent) => void; types: () => string[] } {
  const events: MemplaneMiddlewareEvent[] = [];
  return { events, onEvent: (event) => events.push(event), types: () => events.map((event) => event.type) };
}
