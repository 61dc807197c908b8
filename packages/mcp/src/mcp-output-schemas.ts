import { z } from 'zod';

const snippet = z.object({
  recordId: z.string().describe('Pass it to memory_get, memory_correct or memory_forget.'),
  text: z.string(),
  score: z.number().optional(),
  source: z.looseObject({ kind: z.string() }).optional().describe('Where the memory came from: a run, an issue comment, a note.'),
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string().optional(),
});

const operationId = z.string().describe('The id of the operation log entry this call wrote.');

const job = z.object({
  jobId: z.string(),
  status: z.string(),
  hookKind: z.string().optional(),
  error: z.string().optional(),
  submittedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});

/** The structured result of every wire tool, as zod schemas; their JSON Schemas are each tool's `outputSchema`. */
export const mcpOutputSchemas = {
  memory_search: z.object({ results: z.array(snippet), operationId }),
  memory_note: z.object({ recordIds: z.array(z.string()), operationId }),
  memory_forget: z.object({
    recordIds: z.array(z.string()),
    forgotten: z.number().int().nonnegative().describe('How many of the records were forgotten; each skipped one has a warning (not_found, or scope_violation: not yours to forget).'),
    warnings: z.array(z.looseObject({ type: z.string() })),
    operationId,
  }),
  memory_correct: z.object({ recordId: z.string(), operationId }),
  memory_list: z.object({ items: z.array(snippet), nextCursor: z.string().optional(), operationId }),
  memory_get: z.object({ record: snippet.nullable(), operationId }),
  memory_profile: z.object({ summary: z.string(), items: z.array(snippet), operationId }),
  memory_jobs: z.object({ jobs: z.array(job), nextCursor: z.string().optional(), operationId }),
} as const;

/** The wire names of the tools this server can expose. */
export type McpToolName = keyof typeof mcpOutputSchemas;

/** JSON Schema (draft 7, which every MCP client validates) of a zod schema, without the dialect key. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  return jsonSchema;
}
