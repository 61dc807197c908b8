import type { LanguageModelMiddleware } from 'ai';

/** The call options a middleware sees (`LanguageModelV3CallOptions` in ai@6), named through the public middleware type. */
export type ModelCallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
/** One message of the provider-level prompt. */
export type ModelPromptMessage = ModelCallOptions['prompt'][number];

/** The marker that opens the block of recalled memory; a system message that starts with it is ours. */
export const hydrationBlockOpen = '<memplane-memory advisory="true">';
/** The marker that closes it. */
export const hydrationBlockClose = '</memplane-memory>';

/** Whether a prompt message is the block this middleware inserted. */
export function isHydrationBlock(message: ModelPromptMessage): boolean {
  return message.role === 'system' && message.content.startsWith(hydrationBlockOpen);
}

/**
 * The system message carrying the preamble. Angle brackets in recalled text are escaped, so a
 * memory cannot close the block and speak outside it.
 */
export function hydrationBlockOf(preamble: string): ModelPromptMessage {
  const escaped = preamble.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return { role: 'system', content: `${hydrationBlockOpen}\n${escaped}\n${hydrationBlockClose}` };
}

/**
 * The prompt with exactly one block: any block already there (the same params passing through
 * twice, or a block a previous step left) is removed, and the new one, if any, goes after the
 * leading system messages, where every provider accepts a system message.
 */
export function withHydrationBlock(prompt: ModelCallOptions['prompt'], block: ModelPromptMessage | undefined): ModelCallOptions['prompt'] {
  const rest = prompt.filter((message) => !isHydrationBlock(message));
  if (block === undefined) return rest;
  let position = 0;
  while (position < rest.length && rest[position]?.role === 'system') position += 1;
  return [...rest.slice(0, position), block, ...rest.slice(position)];
}

/** The text parts of a message, joined. */
export function textOf(message: ModelPromptMessage): string {
  if (message.role === 'system') return message.content;
  const texts: string[] = [];
  for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

/** The index of the last user message, or -1. */
export function lastUserIndex(prompt: ModelCallOptions['prompt']): number {
  for (let index = prompt.length - 1; index >= 0; index -= 1) if (prompt[index]?.role === 'user') return index;
  return -1;
}

/**
 * The turn a call belongs to: the last user message, by position and text. Tool-loop steps of
 * one turn share it (they only add assistant and tool messages after it), so they share one
 * hydration; a new user message starts a new turn.
 */
export function turnOf(prompt: ModelCallOptions['prompt']): { key: string; userText: string } | undefined {
  const index = lastUserIndex(prompt);
  if (index < 0) return undefined;
  const userText = textOf(prompt[index] as ModelPromptMessage).trim();
  if (userText === '') return undefined;
  const userMessages = prompt.slice(0, index + 1).filter((message) => message.role === 'user').length;
  return { key: `${userMessages}\u0000${userText}`, userText };
}
