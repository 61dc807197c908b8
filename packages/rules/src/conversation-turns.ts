import { z } from 'zod';

/**
 * The roles of an assistant's turns (compared case-insensitively): its replies are the model's
 * words, not what the user said, so rule-based extraction skips them unless told to keep them.
 */
export const assistantRoles: ReadonlyArray<string> = ['assistant', 'ai', 'model'];

/** Roles that name no one: their turns are kept without a speaker prefix. Any other role is a speaker's name ("Caroline"). */
export const genericRoles: ReadonlyArray<string> = ['user', 'assistant', 'system', 'tool', 'human', 'ai', 'model'];

/** What rule-based extraction does with assistant turns: `skip` them (the default) or `keep` them like any other. */
export type AssistantTurns = 'skip' | 'keep';

/** The values of {@link AssistantTurns}, for settings schemas. */
export const assistantTurnsSchema = z.enum(['skip', 'keep']);

/** Whether a turn's role is the assistant's ({@link assistantRoles}). A named speaker ("Caroline") is not. */
export function isAssistantRole(role: string | undefined): boolean {
  return role !== undefined && assistantRoles.includes(role.trim().toLowerCase());
}

/** The prefix an extracted item of a turn carries: `Caroline: ` for a named speaker, nothing for a generic role. */
export function speakerPrefix(role: string | undefined): string {
  return role === undefined || genericRoles.includes(role.trim().toLowerCase()) ? '' : `${role}: `;
}

/** One turn of a captured conversation. */
export interface ConversationTurn {
  /** Who spoke: `user`, `assistant`, or a speaker's name. */
  readonly role: string;
  /** What they said. */
  readonly content: string;
  /** When, ISO 8601 with an offset. */
  readonly occurredAt?: string;
}

const conversationSchema = z.strictObject({
  messages: z
    .array(z.strictObject({ role: z.string().trim().min(1).max(100), content: z.string(), occurredAt: z.iso.datetime({ offset: true }).optional() }))
    .min(1)
    .max(10_000),
});

/**
 * The turns of a capture payload's `object` when it is a conversation, exactly
 * `{ messages: [{ role, content, occurredAt? }] }`; otherwise undefined (an object of another
 * shape is not a conversation).
 */
export function conversationTurnsOf(object: unknown): ConversationTurn[] | undefined {
  const parsed = conversationSchema.safeParse(object);
  return parsed.success ? parsed.data.messages.map(({ role, content, occurredAt }) => (occurredAt === undefined ? { role, content } : { role, content, occurredAt })) : undefined;
}
