// What the worker checks in the answers of memplane serve before it uses them: the fields it
// reads, with their types. The rest of a body passes through as the server sent it; an answer
// without these fields is `MEMORY_INVALID_RESPONSE`, never half-used.
import { z } from 'zod';

export const objectSchema = z.looseObject({});

/** The receipt every runtime operation returns. */
export const receiptSchema = z.looseObject({ operationId: z.string() });

const snippetSchema = z.looseObject({
  text: z.string(),
  handle: z.looseObject({ providerKey: z.string(), providerRecordId: z.string() }),
  scope: z.looseObject({ agentId: z.string().optional() }).optional(),
});

export const querySchema = z.looseObject({ operationId: z.string(), snippets: z.array(snippetSchema) });
export const listSchema = z.looseObject({ operationId: z.string(), items: z.array(snippetSchema), nextCursor: z.string().optional() });
export const getSchema = z.looseObject({ snippet: snippetSchema.nullable(), warnings: z.array(objectSchema).default([]) });
const warningSchema = z.looseObject({ type: z.string(), providerRecordId: z.string().optional() });

/**
 * A forget: `forgotten` is how many records were forgotten. A memplane serve of an earlier
 * release leaves it out; it is then counted from the handles sent, less the ones its warnings
 * name as skipped (see {@link forgottenOf}).
 */
export const forgetSchema = z.looseObject({
  operationId: z.string(),
  forgotten: z.number().int().nonnegative().optional(),
  warnings: z.array(warningSchema).default([]),
});

/** The number a forget answer reports, or, from a server that does not, the distinct handles sent that no skip warning names. */
export function forgottenOf(answer: z.output<typeof forgetSchema>, handles: ReadonlyArray<{ providerRecordId: string }>): number {
  if (answer.forgotten !== undefined) return answer.forgotten;
  const skipped = new Set<string>();
  for (const warning of answer.warnings) {
    if ((warning.type === 'not_found' || warning.type === 'scope_violation') && warning.providerRecordId !== undefined) skipped.add(warning.providerRecordId);
  }
  return new Set(handles.map((handle) => handle.providerRecordId).filter((id) => !skipped.has(id))).size;
}

export const correctSchema = z.looseObject({ operationId: z.string(), record: z.looseObject({ providerKey: z.string(), providerRecordId: z.string() }) });

/** A page of the explorer (`{ items, nextCursor }`). */
export const pageSchema = z.looseObject({ items: z.array(objectSchema), nextCursor: z.string().optional() });

export const bindingSchema = z.looseObject({
  id: z.string(),
  companyId: z.string(),
  key: z.string(),
  providerId: z.string(),
  enabled: z.boolean(),
  hooks: z.looseObject({ postRunCapture: z.boolean(), issueCommentCapture: z.boolean(), issueDocumentCapture: z.boolean() }),
  config: z.record(z.string(), z.unknown()),
  capabilities: z.looseObject({}),
  revision: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const targetSchema = z.looseObject({
  companyId: z.string(),
  targetType: z.enum(['company', 'agent']),
  targetId: z.string(),
  bindingId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const countsSchema = z.looseObject({ bindingKey: z.string(), total: z.number(), succeeded: z.number(), failed: z.number() });

/** A list the server sends bare or as `{ items }`, read as the array. */
export function listOf<Item extends z.ZodType>(item: Item) {
  return z.union([z.array(item), z.looseObject({ items: z.array(item) }).transform((page) => page.items)]);
}

const deliverySchema = z.looseObject({ status: z.string() });
export const captureReportSchema = z.looseObject({ hookId: z.string(), deliveries: z.array(deliverySchema) });
// sharedPreamble is missing from a memplane serve of an earlier release: the issue document then shows nothing.
export const hydrationSchema = captureReportSchema.extend({ preamble: z.string(), sharedPreamble: z.string().optional(), operationId: z.string().optional() });

export const sessionSchema = z.looseObject({ actor: z.looseObject({ kind: z.string() }), companies: z.array(z.string()) });
