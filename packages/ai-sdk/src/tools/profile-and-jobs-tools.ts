import { MemoryError, parseInput, type MemorySnippet } from '@memplane/core';
import { toToolRecordId, type MemoryToolContext, type MemoryToolDefinition, type MemoryToolHost, type MemoryToolResult } from '@memplane/service';
import { z } from 'zod';

// The same inputs, calls and results as the MCP server's memory_profile and memory_jobs, so an
// agent sees one behaviour whichever way it reaches memory.

/** The input of `memory_profile`: nothing; the scope is the caller's. */
export const profileInputSchema = z.strictObject({});

/** The input of `memory_jobs`. */
export const jobsInputSchema = z.strictObject({
  cursor: z.string().min(1).max(4096).optional().describe('nextCursor from the previous memory_jobs call.'),
});

const callContextOf = ({ issueId: _issue, projectId: _project, ...context }: MemoryToolContext) => context;

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return jsonSchema;
}

const snippetData = (snippet: MemorySnippet): Record<string, unknown> => ({
  recordId: toToolRecordId(snippet.handle),
  text: snippet.text,
  ...(snippet.score === undefined ? {} : { score: snippet.score }),
  ...(snippet.source === undefined ? {} : { source: snippet.source }),
  ...(snippet.metadata === undefined ? {} : { metadata: snippet.metadata }),
  ...(snippet.createdAt === undefined ? {} : { createdAt: snippet.createdAt }),
});

/** Like the service's tools: a memory error is a result the model can act on; anything else is a bug and propagates. */
async function asToolResult(name: string, run: () => Promise<{ content: string; data: unknown; operationId: string }>): Promise<MemoryToolResult> {
  try {
    return { isError: false, ...(await run()) };
  } catch (error) {
    if (!MemoryError.isInstance(error)) throw error;
    return { isError: true, content: `${name} failed: ${error.message}`, error: { code: error.code, message: error.message } };
  }
}

function describeProfile(profile: { summary: string; items: Array<Record<string, unknown>> }): string {
  const lines = profile.items.map((item, index) => `${index + 1}. [${String(item.recordId)}] ${String(item.text).replace(/\s+/g, ' ').trim()}`);
  const summary = profile.summary.trim();
  if (summary === '' && lines.length === 0) return 'The profile is empty.';
  return [summary, ...lines].filter((line) => line !== '').join('\n');
}

/**
 * `memory.profile` (binding capability `profile`) and `memory.jobs` (`listExtractionJobs`).
 * Like the service's six tools, each call goes through the runtime API as the agent, so the
 * policy, the scope checks and the operation log apply.
 */
export function createProfileAndJobsTools(host: MemoryToolHost): { profile: MemoryToolDefinition; jobs: MemoryToolDefinition } {
  const profile: MemoryToolDefinition = {
    name: 'memory.profile',
    functionName: 'memory_profile',
    description:
      'Read the stable profile of your scope: lasting preferences and facts, summarised. Read it at the start of a task when preferences matter; use memory_search for anything specific.',
    inputSchema: jsonSchemaOf(profileInputSchema),
    execute: (input, context) =>
      asToolResult('memory.profile', async () => {
        parseInput(profileInputSchema, input, 'memory.profile input');
        const result = await host.runtime(callContextOf(context)).profile();
        const data = { summary: result.summary, items: (result.items ?? []).map(snippetData) };
        return { content: describeProfile(data), data, operationId: result.operationId };
      }),
  };
  const jobs: MemoryToolDefinition = {
    name: 'memory.jobs',
    functionName: 'memory_jobs',
    description:
      'List the extraction jobs of your memory provider: captures it is still turning into memories, and failed ones. Use it when a recent capture does not show up in memory_search yet.',
    inputSchema: jsonSchemaOf(jobsInputSchema),
    execute: (input, context) =>
      asToolResult('memory.jobs', async () => {
        const valid = parseInput(jobsInputSchema, input, 'memory.jobs input');
        const page = await host.runtime(callContextOf(context)).listProviderExtractionJobs(valid.cursor === undefined ? {} : { cursor: valid.cursor });
        const items = page.items.map((job) => ({
          jobId: job.providerJobId,
          status: job.status,
          ...(job.hookKind === undefined ? {} : { hookKind: job.hookKind }),
          ...(job.error === undefined ? {} : { error: job.error }),
          ...(job.submittedAt === undefined ? {} : { submittedAt: job.submittedAt }),
          ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
        }));
        const lines = items.map((job) => `${job.jobId}: ${job.status}${job.error === undefined ? '' : ` (${job.error})`}`);
        if (page.nextCursor !== undefined) lines.push(`More: call memory_jobs with cursor "${page.nextCursor}".`);
        return {
          content: lines.length === 0 ? 'No extraction jobs.' : lines.join('\n'),
          data: { jobs: items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) },
          operationId: page.operationId,
        };
      }),
  };
  return { profile, jobs };
}
