import {
  memoryCaptureResultSchema,
  memoryContextBundleSchema,
  memoryExtractionJobSchema,
  memoryListPageSchema,
  memoryRecordWriteResultSchema,
  memorySnippetSchema,
  memoryUsageSchema,
  memoryWarningSchema,
  MemoryInvalidResponseError,
  parseProviderResult,
  type MemorySnippet,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';

/*
 * Every adapter's result is checked here, whether or not it was built with defineMemoryAdapter:
 * a plugin adapter is code the service does not control. A malformed result is
 * `MemoryInvalidResponseError` and the operation fails; it is never passed on. Usage is the one
 * exception: a counter that is not a finite number >= 0 is removed and becomes a warning, so a
 * provider's garbage is never booked and never fails an otherwise good result.
 */

const counterKeys = ['inputTokens', 'cachedInputTokens', 'outputTokens', 'embeddingTokens', 'costCents', 'latencyMs'] as const;
const handleSchema = z.object({ providerKey: z.string().min(1), providerRecordId: z.string().min(1) });
const warningsSchema = z.array(memoryWarningSchema).optional();

/** The envelopes of each result, without `usage` (checked apart) and with snippet arrays left to {@link checkSnippets}. */
export const providerResultSchemas = {
  capture: memoryCaptureResultSchema.omit({ usage: true }).extend({ records: z.array(handleSchema).optional() }),
  upsertRecords: memoryRecordWriteResultSchema.omit({ usage: true }).extend({ records: z.array(handleSchema).optional() }),
  query: memoryContextBundleSchema.omit({ usage: true }).extend({ snippets: z.array(z.unknown()) }),
  list: memoryListPageSchema.omit({ usage: true }).extend({ items: z.array(z.unknown()) }),
  forget: z.object({ warnings: warningsSchema }),
  correct: z.object({ record: handleSchema, supersedes: handleSchema.optional(), warnings: warningsSchema }),
  profile: z.object({ summary: z.string(), items: z.array(z.unknown()).optional(), warnings: warningsSchema }),
  extractionJob: z.object({ job: memoryExtractionJobSchema.nullable() }),
  extractionJobPage: z.object({ items: z.array(memoryExtractionJobSchema), nextCursor: z.string().min(1).optional(), warnings: warningsSchema }),
  extractionRetry: z.object({ job: memoryExtractionJobSchema, warnings: warningsSchema }),
} as const;

type ResultKind = keyof typeof providerResultSchemas;
type Envelope<Kind extends ResultKind> = z.output<(typeof providerResultSchemas)[Kind]>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The usage of a result, checked: an entry that is not usage is dropped, and a counter that is
 * not a finite number >= 0 is removed; each becomes a warning. Returns the clean entries.
 */
export function checkUsage(value: unknown, providerId: string, warnings: MemoryWarning[]): MemoryUsage[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    warnings.push({ type: 'other', message: `The ${providerId} provider reported usage that is not a list; it was not booked.` });
    return [];
  }
  const clean: MemoryUsage[] = [];
  for (const entry of value as unknown[]) {
    if (!isRecord(entry)) {
      warnings.push({ type: 'other', message: `The ${providerId} provider reported a usage entry that is not an object; it was not booked.` });
      continue;
    }
    const copy: Record<string, unknown> = { ...entry };
    for (const key of counterKeys) {
      const counter = copy[key];
      if (counter === undefined) continue;
      if (typeof counter !== 'number' || !Number.isFinite(counter) || counter < 0) {
        delete copy[key];
        warnings.push({
          type: 'other',
          message: `The ${providerId} provider reported usage ${key} ${typeof counter === 'number' ? String(counter) : `of type ${typeof counter}`}; a counter must be a finite number >= 0, so it was not booked.`,
        });
      }
    }
    const parsed = memoryUsageSchema.safeParse(copy);
    if (parsed.success) clean.push(parsed.data);
    else warnings.push({ type: 'other', message: `The ${providerId} provider reported a malformed usage entry; it was not booked.` });
  }
  return clean;
}

/**
 * Checks a provider result of one kind: the envelope by its schema, then the usage apart.
 * Throws `MemoryInvalidResponseError` naming the field of anything malformed.
 */
export function checkProviderResult<Kind extends ResultKind>(
  kind: Kind,
  value: unknown,
  providerId: string,
): Envelope<Kind> & { usage: MemoryUsage[]; warnings: MemoryWarning[] } {
  if (!isRecord(value)) {
    throw new MemoryInvalidResponseError({ message: `Malformed ${providerId} ${kind} result: expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.` });
  }
  const { usage, ...rest } = value;
  const envelope = parseProviderResult(providerResultSchemas[kind], rest, `${providerId} ${kind} result`) as Envelope<Kind> & { warnings?: MemoryWarning[] };
  const warnings: MemoryWarning[] = [...(envelope.warnings ?? [])];
  return { ...envelope, usage: checkUsage(usage, providerId, warnings), warnings };
}

function isSnippetShaped(value: unknown): value is MemorySnippet {
  if (!isRecord(value)) return false;
  const { handle, text, score, summary, source, metadata, scope, createdAt, updatedAt } = value;
  return (
    isRecord(handle) &&
    typeof handle.providerKey === 'string' &&
    typeof handle.providerRecordId === 'string' &&
    handle.providerRecordId !== '' &&
    typeof text === 'string' &&
    (score === undefined || (typeof score === 'number' && !Number.isNaN(score))) &&
    (summary === undefined || typeof summary === 'string') &&
    (source === undefined || (isRecord(source) && typeof source.companyId === 'string' && typeof source.kind === 'string')) &&
    (metadata === undefined || isRecord(metadata)) &&
    (scope === undefined || (isRecord(scope) && typeof scope.companyId === 'string')) &&
    (createdAt === undefined || typeof createdAt === 'string') &&
    (updatedAt === undefined || typeof updatedAt === 'string')
  );
}

/**
 * Checks the snippets of a result by hand; the first one that fails goes through the zod
 * schema, which names the bad field (`items.3.text`) in `MemoryInvalidResponseError`.
 */
export function checkSnippets(values: unknown[], description: string, pathPrefix: string): MemorySnippet[] {
  const checked: MemorySnippet[] = [];
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (isSnippetShaped(value)) checked.push(value);
    else checked.push(parseProviderResult(memorySnippetSchema, value, description, `${pathPrefix}.${index}`) as MemorySnippet);
  }
  return checked;
}
