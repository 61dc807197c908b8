import { z } from 'zod';

/** A JSON value: what metadata may hold, so it survives any provider's storage unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, 'must be a finite number'),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);

/** Metadata: a JSON object. Functions, undefined values, NaN and class instances are refused. */
export const metadataSchema = z.record(z.string(), jsonValueSchema) as unknown as z.ZodType<Record<string, unknown>>;
