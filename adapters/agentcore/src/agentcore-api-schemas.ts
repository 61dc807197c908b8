import { handCheckedSchema } from '@memplane/core';
import { z } from 'zod';

/**
 * The AgentCore responses the adapter reads, as the SDK returns them (timestamps already
 * turned into `Date`s). The SDK does not check required members, so every response is
 * validated here: a malformed body becomes `MemoryInvalidResponseError`, never a result.
 * Only the members the adapter reads are listed; others pass unchecked.
 */

/**
 * A metadata value as read. Its members are checked where they are used (a value that is not
 * a string is never taken for a scope field or a provenance chunk), not here: validating every
 * value of every record was most of the cost of reading a page.
 */
export interface AgentCoreMetadataValue {
  stringValue?: unknown;
  stringListValue?: unknown;
  numberValue?: unknown;
  dateTimeValue?: unknown;
}

/** A metadata map of a record or an event. */
export type AgentCoreMetadataMap = Record<string, AgentCoreMetadataValue | null | undefined>;

const metadataMapSchema = z
  .custom<AgentCoreMetadataMap>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be a metadata map')
  .optional();

/** A memory record, as list, retrieve and get return it. */
export const agentCoreRecordSchema = z.object({
  memoryRecordId: z.string().min(1),
  content: z.object({ text: z.string() }),
  memoryStrategyId: z.string().optional(),
  namespaces: z.array(z.string()),
  createdAt: z.date(),
  score: z.number().optional(),
  metadata: metadataMapSchema,
});

/** The detailed zod schema of a record page, run for its field-by-field issues when the fast check fails. */
export const detailedRecordPageSchema = z.object({
  memoryRecordSummaries: z.array(agentCoreRecordSchema),
  nextToken: z.string().min(1).optional(),
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** The hand-written check of one record: accepts exactly what `agentCoreRecordSchema` accepts. */
export function isAgentCoreRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { memoryRecordId, content, namespaces, createdAt, score, metadata } = value;
  if (typeof memoryRecordId !== 'string' || memoryRecordId === '') return false;
  if (!isObject(content) || typeof content.text !== 'string') return false;
  if (!isOptionalString(value.memoryStrategyId)) return false;
  if (!Array.isArray(namespaces)) return false;
  for (const namespace of namespaces) if (typeof namespace !== 'string') return false;
  if (!(createdAt instanceof Date) || Number.isNaN(createdAt.getTime())) return false;
  if (score !== undefined && !(typeof score === 'number' && Number.isFinite(score))) return false;
  return metadata === undefined || isObject(metadata);
}

/** The hand-written check of a `ListMemoryRecords` or `RetrieveMemoryRecords` answer. */
export function isAgentCoreRecordPage(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { memoryRecordSummaries, nextToken } = value;
  if (nextToken !== undefined && (typeof nextToken !== 'string' || nextToken === '')) return false;
  if (!Array.isArray(memoryRecordSummaries)) return false;
  for (const record of memoryRecordSummaries) if (!isAgentCoreRecord(record)) return false;
  return true;
}

/**
 * `ListMemoryRecords` and `RetrieveMemoryRecords`. A page holds up to 100 records, and the
 * zod object cost several microseconds per record, so a hand-written check runs first and
 * the body passes through unchanged; only a body that fails it goes through
 * `detailedRecordPageSchema`, whose issues name the bad field. `agentcore-api-schemas.test.ts`
 * holds the two in agreement.
 */
export const agentCoreRecordPageSchema = handCheckedSchema(isAgentCoreRecordPage, detailedRecordPageSchema, 'is not a record page');

/** `GetMemoryRecord`. */
export const agentCoreGetRecordSchema = z.object({ memoryRecord: agentCoreRecordSchema });

const recordOutcomeSchema = z.object({
  memoryRecordId: z.string().optional(),
  status: z.string(),
  requestIdentifier: z.string().optional(),
  errorCode: z.number().optional(),
  errorMessage: z.string().optional(),
});

/** `BatchCreateMemoryRecords`, `BatchUpdateMemoryRecords` and `BatchDeleteMemoryRecords`: partial failures come inside a success. */
export const agentCoreBatchOutcomeSchema = z.object({
  successfulRecords: z.array(recordOutcomeSchema),
  failedRecords: z.array(recordOutcomeSchema),
});

/** `DeleteMemoryRecord`. */
export const agentCoreDeleteRecordSchema = z.object({ memoryRecordId: z.string().min(1) });

const payloadItemSchema = z.object({
  conversational: z.object({ content: z.object({ text: z.string().optional() }), role: z.string() }).optional(),
  blob: z.unknown().optional(),
  json: z.object({ content: z.unknown() }).optional(),
});

/** An event, as CreateEvent and GetEvent return it. */
export const agentCoreEventSchema = z.object({
  actorId: z.string().min(1),
  sessionId: z.string().min(1),
  eventId: z.string().min(1),
  eventTimestamp: z.date(),
  payload: z.array(payloadItemSchema),
  metadata: metadataMapSchema,
});

/** `CreateEvent` and `GetEvent`. */
export const agentCoreEventResultSchema = z.object({ event: agentCoreEventSchema });

/** `DeleteEvent`. */
export const agentCoreDeleteEventSchema = z.object({ eventId: z.string().min(1) });

/** One failed extraction job of `ListMemoryExtractionJobs`. */
export const agentCoreExtractionJobSchema = z.object({
  jobID: z.string().min(1),
  messages: z
    .object({ messagesList: z.array(z.object({ eventId: z.string(), messageIndex: z.number() })).optional() })
    .optional(),
  status: z.string().optional(),
  failureReason: z.string().optional(),
  strategyId: z.string().optional(),
  sessionId: z.string().optional(),
  actorId: z.string().optional(),
});

/** `ListMemoryExtractionJobs`. */
export const agentCoreExtractionJobPageSchema = z.object({
  jobs: z.array(agentCoreExtractionJobSchema),
  nextToken: z.string().min(1).optional(),
});

/** `StartMemoryExtractionJob`. */
export const agentCoreStartJobSchema = z.object({ jobId: z.string().min(1) });

/** A memory record as the adapter reads it. */
export type AgentCoreRecord = z.output<typeof agentCoreRecordSchema>;
/** An event as the adapter reads it. */
export type AgentCoreEvent = z.output<typeof agentCoreEventSchema>;
/** A failed extraction job as the adapter reads it. */
export type AgentCoreExtractionJob = z.output<typeof agentCoreExtractionJobSchema>;
/** A metadata map of a record or an event. */
export type AgentCoreMetadata = AgentCoreRecord['metadata'];

/** The most records one batch call may carry. */
export const agentCoreMaximumRecordsPerBatch = 100;
/** The largest `maxResults` of a list call and the largest `topK` of a retrieve. */
export const agentCoreMaximumPageSize = 100;
