import { handCheckedSchema } from '@memplane/core';
import { z } from 'zod';

/**
 * What the SDK returns, validated before use. The SDK camel-cases response keys
 * (`created_at` → `createdAt`) except inside `metadata` and `profile`, which stay verbatim,
 * and it returns dates as strings. A body of another shape becomes `MemoryInvalidResponseError`.
 */

const nullableText = z.string().nullish();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object whose keys are the caller's (`metadata`, `payload`, `profile`): checked as
 * an object only, since a record schema costs a parse per key on every record of a page.
 */
const jsonObject = z.custom<Record<string, unknown>>(isPlainObject, 'must be an object');

/** The full check of one memory, run for its field-by-field issues when the fast check fails. */
export const detailedMemorySchema = z.object({
  id: z.string().min(1),
  memory: z.string(),
  userId: nullableText,
  agentId: nullableText,
  appId: nullableText,
  /** Search calls the run `run_id`... */
  runId: nullableText,
  /** ...while getAll and get call the same value `session_id`. */
  sessionId: nullableText,
  metadata: jsonObject.nullish(),
  score: z.number().nullish(),
  createdAt: z.string().min(1),
  updatedAt: nullableText,
});

/** One memory, as search, getAll, get and update return it. */
export type Mem0Memory = z.output<typeof detailedMemorySchema>;

const optionalTextFields = ['userId', 'agentId', 'appId', 'runId', 'sessionId', 'updatedAt'] as const;

/** The hand-written check of one memory: accepts exactly what `detailedMemorySchema` accepts. */
export function isMem0Memory(value: unknown): value is Mem0Memory {
  if (!isPlainObject(value)) return false;
  if (typeof value.id !== 'string' || value.id === '' || typeof value.memory !== 'string') return false;
  if (typeof value.createdAt !== 'string' || value.createdAt === '') return false;
  for (const field of optionalTextFields) {
    const text = value[field];
    if (text !== undefined && text !== null && typeof text !== 'string') return false;
  }
  const { metadata, score } = value;
  if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) return false;
  return score === undefined || score === null || (typeof score === 'number' && Number.isFinite(score));
}

function areMem0Memories(value: unknown): value is Mem0Memory[] {
  if (!Array.isArray(value)) return false;
  for (const memory of value) if (!isMem0Memory(memory)) return false;
  return true;
}

/*
 * Pages hold up to 200 memories, and a zod object costs several microseconds per memory, so
 * the bodies read on every call are checked by hand first (core `handCheckedSchema`); zod
 * runs only for a body that fails, to name the bad field. `mem0-api-schemas.test.ts` holds
 * each hand check in agreement with its detailed schema.
 */

/** One memory, validated, as `get` and `update` return it. */
export const mem0MemorySchema = handCheckedSchema(isMem0Memory, detailedMemorySchema, 'is not a valid mem0 response');

/** `POST /v3/memories/add/` with `infer: true`: the extraction was queued as an event. */
export const mem0QueuedAddSchema = z.object({
  status: z.string().min(1),
  eventId: z.string().min(1),
});

/** `POST /v3/memories/add/` with `infer: false`: one stored memory per message, in order. */
export const mem0StoredAddSchema = z.object({
  results: z.array(
    z.object({
      id: z.string().min(1),
      data: z.object({ memory: z.string() }).nullish(),
      event: z.string().nullish(),
    }),
  ),
});

/** The detailed zod schema of a search answer, run for its issues when the fast check fails. */
export const detailedSearchSchema = z.object({ results: z.array(detailedMemorySchema) });

/** The detailed zod schema of a getAll page, run for its issues when the fast check fails. */
export const detailedPageSchema = z.object({
  count: z.number().int().nonnegative(),
  next: z.string().nullish(),
  results: z.array(detailedMemorySchema),
});

/** The hand-written check of a search answer. */
export function isMem0SearchAnswer(value: unknown): boolean {
  return isPlainObject(value) && areMem0Memories(value.results);
}

/** The hand-written check of a getAll page. */
export function isMem0Page(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const { count, next } = value;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return false;
  if (next !== undefined && next !== null && typeof next !== 'string') return false;
  return areMem0Memories(value.results);
}

/** `POST /v3/memories/search/`: the best matches first. */
export const mem0SearchSchema = handCheckedSchema(isMem0SearchAnswer, detailedSearchSchema, 'is not a valid mem0 response');

/** `POST /v3/memories/?page=&page_size=`: one page of a filtered listing. */
export const mem0PageSchema = handCheckedSchema(isMem0Page, detailedPageSchema, 'is not a valid mem0 response');

/** `DELETE /v1/memories/{id}/` and `DELETE /v1/batch/`. */
export const mem0MessageSchema = z.object({ message: z.string() });

/** The original add request an event keeps (`payload`), as far as the adapter reads it. */
export const mem0EventPayloadSchema = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.unknown() })).optional(),
  appId: nullableText,
  userId: nullableText,
  agentId: nullableText,
  runId: nullableText,
  metadata: jsonObject.nullish(),
  infer: z.boolean().nullish(),
});

/** `GET /v1/event/{id}/`: an asynchronous operation. */
export const mem0EventSchema = z.object({
  id: z.string().min(1),
  eventType: z.string().min(1),
  /**
   * `PENDING`, `RUNNING`, `FAILED` or `SUCCEEDED` today; read as text, so an event with a
   * status added later (by any tenant of the project) cannot fail a whole events page.
   */
  status: z.string().min(1),
  payload: jsonObject.nullish(),
  createdAt: nullableText,
  startedAt: nullableText,
  completedAt: nullableText,
  latency: z.number().nullish(),
  error: z.unknown().optional(),
});

/**
 * `GET /v1/events/`: one page of the project's events, newest first. Entries are checked
 * one by one (`mem0EventSchema`), so one odd event cannot fail the page.
 */
export const mem0EventPageSchema = z.object({
  count: z.number().int().nonnegative(),
  next: z.string().nullish(),
  results: z.array(z.unknown()),
});

/** `GET /v2/entities/user/{id}/profile/`. */
export const mem0ProfileSchema = z.object({
  profile: jsonObject.nullish(),
  status: z.enum(['succeeded', 'pending', 'failed', 'not_enabled', 'insufficient_data']),
  updatedAt: nullableText,
  error: nullableText,
});

/** A user's profile. */
export type Mem0Profile = z.output<typeof mem0ProfileSchema>;
/** One mem0 event. */
export type Mem0Event = z.output<typeof mem0EventSchema>;
/** The add request an event keeps. */
export type Mem0EventPayload = z.output<typeof mem0EventPayloadSchema>;

/** The largest page `getAll` serves. */
export const mem0MaximumPageSize = 200;
/** The most memories one `batchDelete` may name. */
export const mem0MaximumBatchDelete = 1000;
