import { z } from 'zod';
import type {
  MemoryCaptureRequest,
  MemoryListRequest,
  MemoryQueryRequest,
  MemoryRecordWriteRequest,
} from '../memory-adapter/v1/memory-adapter-v1-requests';
import type { MemoryRecordHandle } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemoryCorrectionPatch } from '../memory-adapter/v1/memory-adapter-v1-results';
import { metadataSchema, storedMetadataSchema } from './json-value-schema';
import { identifierSchema, memoryScopeSchema } from './scope-schema';
import { memoryHookContextSchema, memorySourcePayloadSchema, memorySourceRefSchema } from './source-schema';
import { isWellFormedText, wellFormedTextMessage } from './well-formed-text';

/** The most records one `upsertRecords` call may carry. */
export const maximumRecordsPerWrite = 1000;
/** The largest `topK` a query may ask for. */
export const maximumTopK = 100;
/** The largest page a list may ask for. */
export const maximumListLimit = 200;
/** The longest record text, in characters. */
export const maximumRecordTextLength = 100_000;

/** A text a provider stores: at most `maximum` characters, and no lone surrogate. */
export function storedTextSchema(maximum: number) {
  return z.string().max(maximum).refine(isWellFormedText, wellFormedTextMessage);
}

const recordText = storedTextSchema(maximumRecordTextLength).refine((text) => text.trim() !== '', 'must not be empty');

export const memoryRecordHandleSchema = z.strictObject({
  providerKey: z.string().min(1),
  providerRecordId: z.string().min(1).max(1024),
}) satisfies z.ZodType<MemoryRecordHandle>;

export const memoryCaptureRequestSchema = z.strictObject({
  bindingKey: identifierSchema,
  scope: memoryScopeSchema,
  source: memorySourceRefSchema,
  payload: memorySourcePayloadSchema,
  hook: memoryHookContextSchema.optional(),
  mode: z.enum(['capture_residue', 'capture_record']).optional(),
  metadata: storedMetadataSchema.optional(),
}) satisfies z.ZodType<MemoryCaptureRequest>;

export const memoryRecordWriteRequestSchema = z.strictObject({
  bindingKey: identifierSchema,
  scope: memoryScopeSchema,
  source: memorySourceRefSchema.optional(),
  records: z
    .array(
      z.strictObject({
        text: recordText,
        summary: storedTextSchema(maximumRecordTextLength).optional(),
        metadata: storedMetadataSchema.optional(),
      }),
    )
    .min(1, 'needs at least one record')
    .max(maximumRecordsPerWrite, `at most ${maximumRecordsPerWrite} records per call`),
}) satisfies z.ZodType<MemoryRecordWriteRequest>;

/** Why a query is asked. */
export const memoryQueryIntentSchema = z.enum(['agent_preamble', 'answer', 'browse']);

export const memoryQueryRequestSchema = z.strictObject({
  bindingKey: identifierSchema,
  scope: memoryScopeSchema,
  query: storedTextSchema(10_000).refine((text) => text.trim() !== '', 'must not be empty'),
  topK: z.number().int().min(1).max(maximumTopK).optional(),
  intent: memoryQueryIntentSchema.optional(),
  metadataFilter: metadataSchema.optional(),
}) satisfies z.ZodType<MemoryQueryRequest>;

export const memoryListRequestSchema = z.strictObject({
  bindingKey: identifierSchema,
  scope: memoryScopeSchema,
  cursor: z.string().min(1).max(4096).optional(),
  limit: z.number().int().min(1).max(maximumListLimit).optional(),
  metadataFilter: metadataSchema.optional(),
}) satisfies z.ZodType<MemoryListRequest>;

export const memoryCorrectionPatchSchema = z
  .strictObject({
    text: recordText.optional(),
    summary: storedTextSchema(maximumRecordTextLength).optional(),
    metadata: storedMetadataSchema.optional(),
    reason: storedTextSchema(2000).optional(),
  })
  .refine((patch) => patch.text !== undefined || patch.summary !== undefined || patch.metadata !== undefined, {
    message: 'needs text, summary or metadata',
    path: ['text'],
  }) satisfies z.ZodType<MemoryCorrectionPatch>;

export const handleListSchema = z.array(memoryRecordHandleSchema).max(maximumRecordsPerWrite);
export const providerJobIdSchema = z.string().min(1).max(1024);
export const optionalCursorSchema = z.string().min(1).max(4096).optional();
