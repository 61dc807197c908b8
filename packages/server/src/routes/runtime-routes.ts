import {
  identifierSchema,
  memoryCaptureResultSchema,
  memoryContextBundleSchema,
  memoryForgetResultSchema,
  memoryListPageSchema,
  memoryRecordWriteResultSchema,
  memorySnippetSchema,
  MemoryValidationError,
} from '@memplane/core';
import { memoryHookKinds, serviceRequestSchemas, type MemoryCallContext, type MemoryService } from '@memplane/service';
import { z } from 'zod';
import { ok, pageSchema, type ServerRoute } from '../server-route';

const base = '/v1/companies/:companyId/memory';
const runtime = serviceRequestSchemas.runtime;
const result = { status: 200 as const, description: 'The service result: the provider result with `operationId`, `bindingKey` and `providerId`.' };
const receipt = z.object({ operationId: z.string(), bindingKey: z.string(), providerId: z.string() });
/** The documented result of a runtime call: the provider result as core describes it, with the service's receipt. */
const resultOf = (schema: z.ZodObject) => ({ ...result, schema: schema.extend(receipt.shape) });

/** The trace `query` returns with `explain: true`: steps about the returned snippets only. */
const explanationSchema = z.object({
  steps: z.array(
    z.object({
      handle: z.object({ providerKey: z.string(), providerRecordId: z.string() }),
      stage: z.string(),
      score: z.number().optional(),
      details: z.string().optional(),
    }),
  ),
});

type Runtime = ReturnType<MemoryService['runtime']>;

/** A runtime endpoint that hands its body to one runtime method. */
function bodyRoute(
  path: string,
  operationId: string,
  summary: string,
  schema: z.ZodType,
  run: (memory: Runtime, body: unknown) => Promise<unknown>,
  bodyRequired = true,
  success: ServerRoute['success'] = result,
  company?: ServerRoute['company'],
): ServerRoute {
  return {
    method: 'post',
    path: `${base}/${path}`,
    tag: 'runtime',
    operationId,
    summary,
    body: schema,
    bodyRequired,
    success,
    ...(company === undefined ? {} : { company }),
    handle: async ({ service, context, body }) => ok(await run(service.runtime(context), body)),
  };
}

type HookRunner = (service: MemoryService, context: MemoryCallContext, input: never) => Promise<unknown>;

const hookRunners: Record<string, HookRunner> = {
  pre_run_hydrate: (service, context, input) => service.hooks.preRunHydrate(context, input),
  post_run_capture: (service, context, input) => service.hooks.postRunCapture(context, input),
  issue_comment_capture: (service, context, input) => service.hooks.issueCommentCapture(context, input),
  issue_document_capture: (service, context, input) => service.hooks.issueDocumentCapture(context, input),
  manual_capture: (service, context, input) => service.hooks.manualCapture(context, input),
};

/** The runtime endpoints: capture, upsert, query, list, get, forget, correct, profile, extraction jobs and hook emission. */
export const runtimeRoutes: ServerRoute[] = [
  // The writes that add memory (these two, and the hooks below) start a company the service does not know yet; every other runtime call needs a known one.
  bodyRoute('capture', 'memory.capture', 'Captures raw residue (a run, a comment, a document).', runtime.capture, (memory, body) => memory.capture(body as never), true, resultOf(memoryCaptureResultSchema), 'provisions'),
  bodyRoute('records', 'memory.upsertRecords', 'Writes curated records.', runtime.upsertRecords, (memory, body) => memory.upsertRecords(body as never), true, resultOf(memoryRecordWriteResultSchema), 'provisions'),
  bodyRoute(
    'query',
    'memory.query',
    'The most relevant records for a query; with `explain: true`, the provider trace of the returned snippets when the binding supports it.',
    runtime.query,
    (memory, body) => memory.query(body as never),
    true,
    resultOf(memoryContextBundleSchema.extend({ explanation: explanationSchema.optional() })),
  ),
  bodyRoute('list', 'memory.list', 'One page of the scope\'s records.', runtime.list, (memory, body) => memory.list((body ?? {}) as never), false, resultOf(memoryListPageSchema)),
  bodyRoute('get', 'memory.get', 'One record by handle, or `snippet: null`.', runtime.get, (memory, body) => memory.get(body as never), true, resultOf(z.object({ snippet: memorySnippetSchema.nullable(), warnings: z.array(z.unknown()) }))),
  bodyRoute(
    'forget',
    'memory.forget',
    'Forgets records by handle. `forgotten` is how many were forgotten; each skipped handle has a warning: `not_found` (no such record in the company) or `scope_violation` (not the caller\'s to change).',
    runtime.forget,
    (memory, body) => memory.forget(body as never),
    true,
    resultOf(memoryForgetResultSchema.extend({ forgotten: z.number().int().nonnegative().describe('How many of the named records were forgotten; skipped handles are not counted.') })),
  ),
  bodyRoute('correct', 'memory.correct', 'Corrects a record (needs the `correction` capability).', runtime.correct, (memory, body) => memory.correct(body as never)),
  bodyRoute('profile', 'memory.profile', 'The scope\'s profile (needs the `profile` capability).', runtime.profile, (memory, body) => memory.profile((body ?? {}) as never), false),
  bodyRoute('provider-jobs', 'memory.listProviderExtractionJobs', 'The provider\'s own extraction job listing.', runtime.listProviderExtractionJobs, (memory, body) => memory.listProviderExtractionJobs((body ?? {}) as never), false),
  bodyRoute(
    'refused-calls',
    'memory.logRefusedCall',
    'Logs a call that a front end of the service (an agent tool) refused before it reached the service, as a failed operation of the caller. Only names are kept: the operation, the front end\'s name for the call and the refused field names, never their values.',
    runtime.logRefusedCall,
    (memory, body) => memory.logRefusedCall(body as never),
    true,
    { status: 200, description: 'The id of the failed operation logged for the refusal.', schema: z.object({ operationId: z.string() }) },
  ),
  bodyRoute('jobs/refresh', 'memory.refreshExtractionJobs', 'Polls the providers for the jobs held as queued or running.', runtime.refreshExtractionJobs, (memory, body) => memory.refreshExtractionJobs((body ?? {}) as never), false),
  {
    method: 'get',
    path: `${base}/jobs`,
    tag: 'runtime',
    operationId: 'memory.listExtractionJobs',
    summary: 'The extraction jobs the service holds, newest first, by cursor (repeat `statuses` for several).',
    query: runtime.listExtractionJobs,
    success: { status: 200, description: 'A page of extraction jobs.', schema: pageSchema },
    handle: async ({ service, context, query }) => ok(await service.runtime(context).listExtractionJobs(query as never)),
  },
  {
    method: 'post',
    path: `${base}/jobs/:jobId/retry`,
    tag: 'runtime',
    operationId: 'memory.retryExtractionJob',
    summary: 'Re-drives a failed extraction job (needs `retryExtractionJob`).',
    params: z.object({ jobId: identifierSchema }),
    success: result,
    handle: async ({ service, context, params }) => ok(await service.runtime(context).retryExtractionJob({ jobId: params.jobId ?? '' })),
  },
  {
    method: 'post',
    path: `${base}/hooks/:hookKind`,
    tag: 'runtime',
    operationId: 'memory.emitHook',
    summary: `Emits a hook (${memoryHookKinds.join(', ')}); the body is that hook's input. Platform callers only (\`hooks.emit\`).`,
    params: z.object({ hookKind: z.enum(memoryHookKinds as [string, ...string[]]) }),
    // A platform's hook is a write: each delivery is recorded, and the capture hooks add memory.
    company: 'provisions',
    body: z.union(Object.values(serviceRequestSchemas.hooks) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]),
    success: { status: 200, description: 'The hook report: hydration (pre_run_hydrate) or what the capture did.' },
    async handle({ service, context, params, body }) {
      const run = hookRunners[params.hookKind ?? ''];
      if (run === undefined) {
        throw new MemoryValidationError({ target: 'hook', issues: [{ path: 'hookKind', message: `must be one of ${memoryHookKinds.join(', ')}` }] });
      }
      return ok(await run(service, context, body as never));
    },
  },
];
