import { MemoryError, parseInput, type MemorySnippet } from '@memplane/core';
import { toToolRecordId, type MemoryToolContext, type MemoryToolDefinition, type MemoryToolHost, type MemoryToolResult } from '@memplane/service';
import { z } from 'zod';

const reachSchema = z
  .enum(['company', 'agent'])
  .describe('company (default): the profile of everything your company remembers through your binding; agent: only yours.');

/** The input of `memory_profile`. */
export const profileInputSchema = z.strictObject({ reach: reachSchema.optional() });

/** The input of `memory_jobs`. */
export const jobsInputSchema = z.strictObject({
  statuses: z
    .array(z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']))
    .min(1)
    .max(5)
    .optional()
    .describe('Only jobs in these statuses, default all.'),
  cursor: z.string().min(1).max(4096).optional().describe('nextCursor from the previous memory_jobs call.'),
  limit: z.number().int().min(1).max(50).optional().describe('Page size, default 20.'),
});

const agentOf = (context: MemoryToolContext) => (context.actor.kind === 'agent' ? context.actor.agentId : undefined);
const callContextOf = ({ issueId: _issue, projectId: _project, ...context }: MemoryToolContext) => context;

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return jsonSchema;
}

/** The same shape and error rule as the service's agent tools: a memory error is a result the model reads. */
function define<Schema extends z.ZodType>(
  name: string,
  description: string,
  schema: Schema,
  run: (input: z.output<Schema>, context: MemoryToolContext) => Promise<{ content: string; data: unknown; operationId: string }>,
): MemoryToolDefinition {
  return {
    name,
    functionName: name.replace('.', '_'),
    description,
    inputSchema: jsonSchemaOf(schema),
    async execute(input, context): Promise<MemoryToolResult> {
      try {
        const valid = parseInput(schema, input, `${name} input`);
        return { isError: false, ...(await run(valid, context)) };
      } catch (error) {
        if (!MemoryError.isInstance(error)) throw error;
        return { isError: true, content: `${name} failed: ${error.message}`, error: { code: error.code, message: error.message } };
      }
    },
  };
}

const line = (snippet: MemorySnippet) => `- [${toToolRecordId(snippet.handle)}] ${snippet.text.replace(/\s+/g, ' ').trim()}`;

/**
 * `memory.profile` and `memory.jobs`, for bindings whose provider has a profile or extraction
 * jobs. Like the service's tools, each call goes through the runtime API as the agent, so the
 * policy, the scope checks and the operation log apply.
 */
export function createProfileAndJobsTools(host: MemoryToolHost): { profile: MemoryToolDefinition; jobs: MemoryToolDefinition } {
  const profile = define(
    'memory.profile',
    'Read the stable profile memory keeps for your scope: preferences and facts summarised by the provider. Use it at the start of a task about a person or team.',
    profileInputSchema,
    async (input, context) => {
      const agentId = agentOf(context);
      const result = await host
        .runtime(callContextOf(context))
        .profile(input.reach === 'agent' && agentId !== undefined ? { scope: { agentId } } : {});
      const items = result.items ?? [];
      const lines = [result.summary.trim() === '' ? 'No profile summary.' : result.summary.trim(), ...items.map(line)];
      return {
        content: lines.join('\n'),
        data: { summary: result.summary, items: items.map((item) => ({ recordId: toToolRecordId(item.handle), text: item.text })) },
        operationId: result.operationId,
      };
    },
  );
  const jobs = define(
    'memory.jobs',
    'See whether what you captured has been turned into memories yet: your extraction jobs with their status and errors.',
    jobsInputSchema,
    async (input, context) => {
      const page = await host.runtime(callContextOf(context)).listExtractionJobs({
        limit: input.limit ?? 20,
        ...(input.statuses === undefined ? {} : { statuses: input.statuses }),
        ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
      });
      const agentId = agentOf(context);
      // An agent sees its own jobs: the listing is the company's, the jobs of other agents are not its business.
      const items = page.items.filter((job) => agentId === undefined || job.scope.agentId === agentId);
      const lines = items.map((job) => `- ${job.id} ${job.status}${job.error === undefined ? '' : `: ${job.error}`}`);
      if (page.nextCursor !== undefined) lines.push(`More: call memory_jobs with cursor "${page.nextCursor}".`);
      return {
        content: lines.length === 0 ? 'No extraction jobs.' : lines.join('\n'),
        data: {
          jobs: items.map((job) => ({ jobId: job.id, status: job.status, ...(job.error === undefined ? {} : { error: job.error }), createdAt: job.createdAt })),
          ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
        },
        operationId: '',
      };
    },
  );
  return { profile, jobs };
}
