import { z } from 'zod';

/**
 * The wire format of the Example API, as the README documents it. Every response is
 * validated against these schemas, so a malformed body becomes `MemoryInvalidResponseError`
 * instead of a wrong result.
 */

/** The usage block the API adds to every response. */
export const exampleUsageSchema = z.object({
  latency_ms: z.number().nonnegative(),
  embedding_tokens: z.number().int().nonnegative().optional(),
  embedding_model: z.string().optional(),
});

/** One record as the API returns it. */
export const exampleRecordSchema = z.object({
  id: z.string().min(1),
  tenant: z.string().min(1),
  text: z.string(),
  summary: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  source: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string().min(1),
  updated_at: z.string().min(1),
});

const usage = exampleUsageSchema.optional();

/** `POST /v1/records`: one result per record, in request order. */
export const exampleCreateRecordsResponseSchema = z.object({
  results: z.array(
    z.discriminatedUnion('status', [
      z.object({ status: z.literal('created'), record: exampleRecordSchema }),
      z.object({
        status: z.literal('rejected'),
        error: z.object({ code: z.string().min(1), message: z.string() }),
      }),
    ]),
  ),
  usage,
});

/** `GET /v1/records`: one keyset page. */
export const exampleListRecordsResponseSchema = z.object({
  records: z.array(exampleRecordSchema),
  next_page_token: z.string().min(1).nullable(),
  usage,
});

/** `GET /v1/records/{id}` and `PATCH /v1/records/{id}`. */
export const exampleRecordResponseSchema = z.object({ record: exampleRecordSchema, usage });

/** `DELETE /v1/records/{id}`. */
export const exampleDeleteRecordResponseSchema = z.object({ deleted: z.literal(true), usage });

/** `POST /v1/search`: the best matches first. */
export const exampleSearchResponseSchema = z.object({
  results: z.array(z.object({ record: exampleRecordSchema, score: z.number() })),
  usage,
});

/** The usage block of an API response. */
export type ExampleUsage = z.output<typeof exampleUsageSchema>;
/** One API record. */
export type ExampleRecord = z.output<typeof exampleRecordSchema>;

/** One record of a `POST /v1/records` body. */
export interface ExampleRecordInput {
  /** The record text. */
  text: string;
  /** A short summary. */
  summary?: string;
  /** String labels the API filters on exactly. */
  labels: Record<string, string>;
  /** Free JSON metadata, returned unchanged and filterable by top-level equality. */
  metadata?: Record<string, unknown>;
  /** Free JSON provenance, returned unchanged. */
  source?: Record<string, unknown>;
}

/** The `filters` of search and list: every label and every top-level metadata key must be equal. */
export interface ExampleFilters {
  /** Labels that must be equal. */
  labels: Record<string, string>;
  /** Top-level metadata values that must be deeply equal. */
  metadata?: Record<string, unknown>;
}

/** The most records one `POST /v1/records` call may carry. */
export const exampleMaximumRecordsPerCall = 100;
