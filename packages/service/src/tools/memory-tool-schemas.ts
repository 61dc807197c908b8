import { identifierSchema, MemoryValidationError, type MemoryRecordHandle } from '@memplane/core';
import { z } from 'zod';

/**
 * Record ids as tools show them to a model: `<providerKey>:<providerRecordId>`, one string the
 * model can copy back. Provider keys never contain `:`.
 */
export function toToolRecordId(handle: MemoryRecordHandle): string {
  return `${handle.providerKey}:${handle.providerRecordId}`;
}

/** Parses a tool record id back to a handle; a malformed one throws `MemoryValidationError` naming the field. */
export function fromToolRecordId(recordId: string, field: string): MemoryRecordHandle {
  const separator = recordId.indexOf(':');
  if (separator <= 0 || separator === recordId.length - 1) {
    throw new MemoryValidationError({
      target: 'tool input',
      issues: [{ path: field, message: 'must be a record id as memory.search or memory.list returned it (provider:id)' }],
    });
  }
  return { providerKey: recordId.slice(0, separator), providerRecordId: recordId.slice(separator + 1) };
}

const recordId = z.string().min(3).max(1100).describe('A record id exactly as memory.search, memory.list or memory.note returned it.');
const reach = z
  .enum(['company', 'agent'])
  .describe('company (default): everything your company remembers through your binding; agent: only what was recorded as yours.');

// Narrowing only ever adds a filter inside the caller's bound scope; the tools refuse a value other than the bound one.
const narrowing = {
  projectId: identifierSchema
    .optional()
    .describe('Only memories recorded for this project. When you are bound to a project, it must be that one.'),
  issueId: identifierSchema.optional().describe('Only memories recorded for this issue. When you are bound to an issue, it must be that one.'),
};

export const searchInputSchema = z.strictObject({
  query: z.string().min(1).max(2000).describe('What you want to remember: a question or keywords.'),
  topK: z.number().int().min(1).max(20).optional().describe('How many results, default 5.'),
  reach: reach.optional(),
  ...narrowing,
});

export const noteInputSchema = z.strictObject({
  text: z.string().min(1).max(5000).describe('The fact, preference or decision, as one self-contained sentence or short paragraph.'),
  kind: z
    .enum(['fact', 'preference', 'decision', 'goal', 'constraint'])
    .optional()
    .describe('What sort of memory this is, default fact.'),
  tags: z.array(z.string().min(1).max(50)).max(10).optional().describe('Short labels to find it again.'),
});

export const forgetInputSchema = z.strictObject({
  recordIds: z.array(recordId).min(1).max(20).describe('The records to forget.'),
});

export const correctInputSchema = z.strictObject({
  recordId,
  text: z.string().min(1).max(5000).describe('The corrected text, replacing the old one.'),
  reason: z.string().min(1).max(500).optional().describe('Why it was wrong, kept with the record history.'),
});

export const listInputSchema = z.strictObject({
  cursor: z.string().min(1).max(4096).optional().describe('nextCursor from the previous memory.list call.'),
  limit: z.number().int().min(1).max(50).optional().describe('Page size, default 20.'),
  reach: reach.optional(),
  ...narrowing,
});

export const getInputSchema = z.strictObject({ recordId });

/** `memory.profile` takes nothing: the scope is the caller's. */
export const profileInputSchema = z.strictObject({});

export const jobsInputSchema = z.strictObject({
  cursor: z.string().min(1).max(4096).optional().describe('nextCursor from the previous memory.jobs call.'),
});

/** JSON Schema of a tool input, for any agent framework. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return jsonSchema;
}
