import { lastUserIndex, textOf, type ModelCallOptions, type ModelPromptMessage } from './prompt-parts';

/** What one model call produced, from `doGenerate` content or the accumulated stream. */
export interface ModelCallOutput {
  /** The reply's text. */
  text: string;
  /** The tool calls the model made in this call. */
  toolCalls: Array<{ toolName: string; input: string }>;
  /** The unified finish reason (`stop`, `tool-calls`, `length`, …), when the model said. */
  finishReason: string | undefined;
}

const maximumToolText = 2000;

const clip = (text: string) => (text.length <= maximumToolText ? text : `${text.slice(0, maximumToolText - 1)}…`);

/** The memory tools' own calls are memory already: capturing them would store recalled text again. */
const isMemoryTool = (toolName: string) => toolName.startsWith('memory_');

function toolResultText(output: unknown): string {
  if (output === null || typeof output !== 'object') return String(output);
  const { type, value } = output as { type?: unknown; value?: unknown };
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value;
  if (type === 'json' || type === 'error-json') return JSON.stringify(value);
  return typeof type === 'string' ? `(${type})` : JSON.stringify(output);
}

function toolLines(messages: ModelPromptMessage[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' && message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && !isMemoryTool(part.toolName)) {
        lines.push(`Tool call ${part.toolName}: ${clip(typeof part.input === 'string' ? part.input : JSON.stringify(part.input))}`);
      } else if (part.type === 'tool-result' && !isMemoryTool(part.toolName)) {
        lines.push(`Tool result ${part.toolName}: ${clip(toolResultText(part.output))}`);
      }
    }
  }
  return lines;
}

/**
 * The unified finish reason of a result: `{ unified, raw }` in the v3 specification, a plain
 * string before it.
 */
export function unifiedFinishReason(finishReason: unknown): string | undefined {
  if (typeof finishReason === 'string') return finishReason;
  if (finishReason !== null && typeof finishReason === 'object') {
    const unified = (finishReason as { unified?: unknown }).unified;
    if (typeof unified === 'string') return unified;
  }
  return undefined;
}

/**
 * The turn as text: the user's message, optionally the turn's tool calls and results, and, when
 * `includeReply`, the reply. The reply is the model's words, not the user's: left out, it never
 * comes back as a memory. System messages (the recalled block among them) are never captured, so
 * memory does not feed on itself. Empty when the reply has no text and no tool line to keep, and
 * when nothing is left to capture.
 */
export function transcriptOf(prompt: ModelCallOptions['prompt'], output: ModelCallOutput, includeToolCalls: boolean, includeReply: boolean): string {
  const userIndex = lastUserIndex(prompt);
  const userText = userIndex < 0 ? '' : textOf(prompt[userIndex] as ModelPromptMessage).trim();
  const tools = includeToolCalls
    ? [
        ...toolLines(prompt.slice(userIndex + 1)),
        ...output.toolCalls.filter((call) => !isMemoryTool(call.toolName)).map((call) => `Tool call ${call.toolName}: ${clip(call.input)}`),
      ]
    : [];
  const reply = output.text.trim();
  if (reply === '' && tools.length === 0) return '';
  return [...(userText === '' ? [] : [`User: ${userText}`]), ...tools, ...(reply === '' || !includeReply ? [] : [`Assistant: ${reply}`])].join('\n');
}
