import { defineMemoryTool, snippetData } from './define-memory-tool';
import * as schemas from './memory-tool-schemas';
import type { MemoryToolDefinition, MemoryToolHost } from './memory-tools';

/** The profile as text: the summary, then one line per record; what `memory.profile` answers and a profile resource shows. */
export function describeProfile(profile: { summary: string; items: Array<Record<string, unknown>> }): string {
  const lines = profile.items.map((item, index) => `${index + 1}. [${String(item.recordId)}] ${String(item.text).replace(/\s+/g, ' ').trim()}`);
  const summary = profile.summary.trim();
  if (summary === '' && lines.length === 0) return 'The profile is empty.';
  return [summary, ...lines].filter((line) => line !== '').join('\n');
}

/** `memory.profile`: the stable profile of the caller's scope, for a binding with the `profile` capability. */
export function createProfileTool(host: MemoryToolHost): MemoryToolDefinition {
  return defineMemoryTool(
    host,
    {
      name: 'memory.profile',
      operation: 'profile',
      description:
        'Read the stable profile of your scope: lasting preferences and facts, summarised. Read it at the start of a task when preferences matter; use memory.search for anything specific.',
      schema: schemas.profileInputSchema,
    },
    () => async (runtime) => {
      const profile = await runtime.profile();
      const data = { summary: profile.summary, items: (profile.items ?? []).map(snippetData) };
      return { content: describeProfile(data), data, operationId: profile.operationId };
    },
  );
}

/** `memory.jobs`: the extraction jobs the binding's provider lists, for a binding with `listExtractionJobs`. */
export function createJobsTool(host: MemoryToolHost): MemoryToolDefinition {
  return defineMemoryTool(
    host,
    {
      name: 'memory.jobs',
      operation: 'extraction_job_list',
      description:
        'List the extraction jobs of your memory provider: captures it is still turning into memories, and failed ones. Use it when a recent capture does not show up in memory.search yet.',
      schema: schemas.jobsInputSchema,
    },
    (input) => async (runtime) => {
      const page = await runtime.listProviderExtractionJobs(input.cursor === undefined ? {} : { cursor: input.cursor });
      const jobs = page.items.map((job) => ({
        jobId: job.providerJobId,
        status: job.status,
        ...(job.hookKind === undefined ? {} : { hookKind: job.hookKind }),
        ...(job.error === undefined ? {} : { error: job.error }),
        ...(job.submittedAt === undefined ? {} : { submittedAt: job.submittedAt }),
        ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
      }));
      const lines = jobs.map((job) => `${job.jobId}: ${job.status}${job.error === undefined ? '' : ` (${job.error})`}`);
      if (page.nextCursor !== undefined) lines.push(`More: call memory.jobs with cursor "${page.nextCursor}".`);
      return {
        content: lines.length === 0 ? 'No extraction jobs.' : lines.join('\n'),
        data: { jobs, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) },
        operationId: page.operationId,
      };
    },
  );
}
