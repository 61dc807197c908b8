import { z } from 'zod';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';

/**
 * The pattern of an identifier: 1 to 256 characters, no control characters (NUL included) and no
 * lone surrogate (half of a UTF-16 pair, which no UTF-8 store can hold; see `well-formed-text.ts`).
 */
export const identifierPattern =
  // eslint-disable-next-line no-control-regex
  /^(?![\s\S]*(?:[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]))[^\u0000-\u001f\u007f]{1,256}$/;

/** An identifier: 1 to 256 characters, no control characters (NUL included), no lone surrogates. */
export const identifierSchema = z.string().regex(identifierPattern, 'must be 1 to 256 characters with no control characters or lone surrogates');

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

/**
 * The scope as a provider returns it. Results are checked for shape, not re-checked for
 * identifier format, which keeps result validation cheap on large pages.
 */
export const returnedScopeSchema = z.object({
  companyId: z.string(),
  agentId: z.string().optional(),
  projectId: z.string().optional(),
  issueId: z.string().optional(),
  runId: z.string().optional(),
  subjectId: z.string().optional(),
  sessionKey: z.string().optional(),
  namespace: z.string().optional(),
}) satisfies z.ZodType<MemoryScope>;
