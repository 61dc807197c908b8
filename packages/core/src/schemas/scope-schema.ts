import { z } from 'zod';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';

/** An identifier: 1 to 256 characters, no control characters (NUL included). */
// eslint-disable-next-line no-control-regex
export const identifierSchema = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters').regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

export const memoryScopeSchema = z.strictObject({
  companyId: identifierSchema,
  agentId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
  issueId: identifierSchema.optional(),
  runId: identifierSchema.optional(),
  subjectId: identifierSchema.optional(),
  sessionKey: identifierSchema.optional(),
  namespace: identifierSchema.optional(),
}) satisfies z.ZodType<MemoryScope>;
