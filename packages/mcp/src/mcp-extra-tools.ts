import { MemoryError, parseInput, type MemoryAdapterCapabilities, type MemorySnippet } from '@memplane/core';
import { toToolRecordId, type MemoryToolContext, type MemoryToolDefinition, type MemoryToolHost, type MemoryToolResult } from '@memplane/service';
import { z } from 'zod';
import { jsonSchemaOf } from './mcp-output-schemas';

/** The tools beyond the service's six that a binding may support, with the capability each needs. */
export interface McpCapabilityTool extends MemoryToolDefinition {
  /** The capability of the resolved binding the tool needs; without it the tool is not offered. */
  requires: keyof MemoryAdapterCapabilities;
}

const profileInputSchema = z.strictObject({});
const jobsInputSchema = z.strictObject({
  cursor: z.string().min(1).max(4096).optional().describe('nextCursor from the previous memory_jobs call.'),
});

/** A snippet as the service's tools return it, so every tool shows records the same way. */
export function snippetData(snippet: MemorySnippet): Record<string, unknown> {
  return {
    recordId: toToolRecordId(snippet.handle),
    text: snippet.text,
    ...(snippet.score === undefined ? {} : { score: snippet.score }),
    ...(snippet.source === undefined ? {} : { source: snippet.source }),
    ...(snippet.metadata === undefined ? {} : { metadata: snippet.metadata }),
    ...(snippet.createdAt === undefined ? {} : { createdAt: snippet.createdAt }),
  };
}

/** The call context of a tool without the tool-only fields, for the runtime API. */
function callContextOf({ issueId: _issue, projectId: _project, ...context }: MemoryToolContext) {
  return context;
}

async function asToolResult(name: string, run: () => Promise<{ content: string; data: unknown; operationId: string }>): Promise<MemoryToolResult> {
  try {
    return { isError: false, ...(await run()) };
  } catch (error) {
    // Like the service's tools: a memory error is a result the model can act on; anything else is a bug and propagates.
    if (!MemoryError.isInstance(error)) throw error;
    return { isError: true, content: `${name} failed: ${error.message}`, error: { code: error.code, message: error.message } };
  }
}

/** Reads the scope's profile as text: the summary, then one line per record. */
export function describeProfile(profile: { summary: string; items: Array<Record<string, unknown>> }): string {
  const lines = profile.items.map((item, index) => `${index + 1}. [${String(item.recordId)}] ${String(item.text).replace(/\s+/g, ' ').trim()}`);
  const summary = profile.summary.trim();
  if (summary === '' && lines.length === 0) return 'The profile is empty.';
  return [summary, ...lines].filter((line) => line !== '').join('\n');
}

/**
 * `memory.profile` and `memory.jobs`, through the runtime API like the service's six tools: the
 * stable profile of the caller's scope (binding capability `profile`), and the extraction jobs
 * the binding's provider lists for it (`listExtractionJobs`).
 */
export function createCapabilityTools(host: MemoryToolHost): McpCapabilityTool[] {
  return [
    {
      name: 'memory.profile',
      functionName: 'memory_profile',
      requires: 'profile',
      description:
        'Read the stable profile of your scope: lasting preferences and facts, summarised. Read it at the start of a task when preferences matter; use memory_search for anything specific.',
      inputSchema: jsonSchemaOf(profileInputSchema),
      execute: (input, context) =>
        asToolResult('memory.profile', async () => {
          parseInput(profileInputSchema, input, 'memory.profile input');
          const profile = await host.runtime(callContextOf(context)).profile();
          const data = { summary: profile.summary, items: (profile.items ?? []).map(snippetData) };
          return { content: describeProfile(data), data, operationId: profile.operationId };
        }),
    },
    {
      name: 'memory.jobs',
      functionName: 'memory_jobs',
      requires: 'listExtractionJobs',
      description:
        'List the extraction jobs of your memory provider: captures it is still turning into memories, and failed ones. Use it when a recent capture does not show up in memory_search yet.',
      inputSchema: jsonSchemaOf(jobsInputSchema),
      execute: (input, context) =>
        asToolResult('memory.jobs', async () => {
          const valid = parseInput(jobsInputSchema, input, 'memory.jobs input');
          const page = await host.runtime(callContextOf(context)).listProviderExtractionJobs(valid.cursor === undefined ? {} : { cursor: valid.cursor });
          const jobs = page.items.map((job) => ({
            jobId: job.providerJobId,
            status: job.status,
            ...(job.hookKind === undefined ? {} : { hookKind: job.hookKind }),
            ...(job.error === undefined ? {} : { error: job.error }),
            ...(job.submittedAt === undefined ? {} : { submittedAt: job.submittedAt }),
            ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
          }));
          const lines = jobs.map((job) => `${job.jobId}: ${job.status}${job.error === undefined ? '' : ` (${job.error})`}`);
          if (page.nextCursor !== undefined) lines.push(`More: call memory_jobs with cursor "${page.nextCursor}".`);
          return {
            content: lines.length === 0 ? 'No extraction jobs.' : lines.join('\n'),
            data: { jobs, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) },
            operationId: page.operationId,
          };
        }),
    },
  ];
}
