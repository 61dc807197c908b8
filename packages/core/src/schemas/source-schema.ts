import { z } from 'zod';
import type {
  MemoryHookContext,
  MemorySourcePayload,
  MemorySourceRef,
} from '../memory-adapter/v1/memory-adapter-v1-source';
import { metadataSchema, storedMetadataSchema } from './json-value-schema';
import { isWellFormedText, wellFormedTextMessage } from './well-formed-text';
import { identifierSchema } from './scope-schema';

const optionalReference = z.string().min(1).max(2048).refine(isWellFormedText, wellFormedTextMessage).optional();

export const memorySourceKindSchema = z.enum([
  'issue_comment',
  'issue_document',
  'issue',
  'run',
  'activity',
  'manual_note',
  'external_document',
]);

export const memorySourceRefSchema = z.strictObject({
  kind: memorySourceKindSchema,
  companyId: identifierSchema,
  issueId: optionalReference,
  commentId: optionalReference,
  documentKey: optionalReference,
  runId: optionalReference,
  activityId: optionalReference,
  externalRef: optionalReference,
}) satisfies z.ZodType<MemorySourceRef>;

/** The source ref as a provider returns it: shape only (see `returnedScopeSchema`). */
export const returnedSourceRefSchema = z.object({
  kind: memorySourceKindSchema,
  companyId: z.string(),
  issueId: z.string().optional(),
  commentId: z.string().optional(),
  documentKey: z.string().optional(),
  runId: z.string().optional(),
  activityId: z.string().optional(),
  externalRef: z.string().optional(),
}) satisfies z.ZodType<MemorySourceRef>;

export const memoryHookKindSchema = z.enum([
  'pre_run_hydrate',
  'post_run_capture',
  'issue_comment_capture',
  'issue_document_capture',
  'manual_capture',
]);

export const memoryHookContextSchema = z.strictObject({
  hookKind: memoryHookKindSchema,
  hookId: identifierSchema,
  triggeredAt: z.iso.datetime({ offset: true }),
  actorAgentId: identifierSchema.optional(),
  heartbeatRunId: identifierSchema.optional(),
}) satisfies z.ZodType<MemoryHookContext>;

export const memorySourcePayloadSchema = z
  .strictObject({
    text: z.string().max(1_000_000).refine(isWellFormedText, wellFormedTextMessage).optional(),
    mimeType: z.string().min(1).max(255).refine(isWellFormedText, wellFormedTextMessage).optional(),
    metadata: storedMetadataSchema.optional(),
    object: metadataSchema.optional(),
  })
  .refine((payload) => (payload.text !== undefined && payload.text.trim() !== '') || payload.object !== undefined, {
    message: 'needs non-empty text or an object',
    path: ['text'],
  }) satisfies z.ZodType<MemorySourcePayload>;
