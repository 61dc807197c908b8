import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { MemoryNotFoundError } from '../errors/memory-not-found-error';
import { MemoryScopeViolationError } from '../errors/memory-scope-violation-error';
import { UnsupportedCapabilityError } from '../errors/unsupported-capability-error';
import type { MemoryAdapter } from '../memory-adapter/v1/memory-adapter-v1';
import type { MemoryAdapterCapabilities } from '../memory-adapter/v1/memory-adapter-v1-capabilities';
import type { MemoryContextBundle, MemoryListPage, MemoryRecordHandle, MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import type { MemorySourceRef } from '../memory-adapter/v1/memory-adapter-v1-source';
import type { MemoryUsage } from '../memory-adapter/v1/memory-adapter-v1-usage';
import type { MemoryWarning } from '../memory-adapter/v1/memory-adapter-v1-warning';
import { copyValidReport } from '../schemas/envelope-fast-path';
import { parseScopedSnippets } from '../schemas/parse-snippets';
import { withRelevance } from './snippet-relevance';
import { copyValidListRequest, copyValidQueryRequest, copyValidScope } from '../schemas/request-fast-path';
import { parseInput, parseProviderResult, readProviderResult } from '../schemas/parse-with-schema';
import * as requests from '../schemas/request-schemas';
import * as results from '../schemas/result-schemas';
import { memoryScopeSchema } from '../schemas/scope-schema';
import { fillUsage } from '../usage/fill-usage';
import { dropOutOfScope, findScopeViolation } from './check-result-scope';
import type { MemoryAdapterImplementation } from './memory-adapter-implementation';
import { memoryAdapterImplementationKey } from './memory-adapter-implementation-of';

interface Reported {
  usage?: MemoryUsage[];
  warnings?: MemoryWarning[];
}

type QueryEnvelope = Omit<z.output<typeof results.memoryContextBundleSchema>, 'snippets'> & { snippets: unknown[] };
type ListEnvelope = Omit<z.output<typeof results.memoryListPageSchema>, 'items'> & { items: unknown[] };

/** The array under `field` of a result, read once, or undefined when there is none. */
function arrayAt(raw: unknown, field: string): unknown[] | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as Record<string, unknown>)[field];
  return Array.isArray(value) ? value : undefined;
}

/*
 * Query and list results: the usage and warnings (`copyValidReport`) and the snippets
 * (`parseScopedSnippets`) are checked by hand, zod only runs to name what is wrong. The
 * snippet array is taken as is here, then replaced by its checked copies. Each field is read
 * once, and a result that throws while it is read is `MemoryInvalidResponseError`.
 */
function parseQueryEnvelope(raw: unknown, description: string): QueryEnvelope {
  return readProviderResult(raw, description, '', () => {
    const snippets = arrayAt(raw, 'snippets');
    const report = snippets === undefined ? undefined : copyValidReport(raw as Record<string, unknown>);
    const profileSummary = report === undefined ? undefined : (raw as Record<string, unknown>).profileSummary;
    if (snippets === undefined || report === undefined || (profileSummary !== undefined && typeof profileSummary !== 'string')) {
      const { snippets: parsed, ...envelope } = parseProviderResult(results.memoryContextBundleShellSchema, raw, description);
      return { ...envelope, snippets: parsed };
    }
    const envelope: QueryEnvelope = { ...report, snippets };
    if (profileSummary !== undefined) envelope.profileSummary = profileSummary;
    return envelope;
  });
}

function parseListEnvelope(raw: unknown, description: string): ListEnvelope {
  return readProviderResult(raw, description, '', () => {
    const items = arrayAt(raw, 'items');
    const report = items === undefined ? undefined : copyValidReport(raw as Record<string, unknown>);
    const nextCursor = report === undefined ? undefined : (raw as Record<string, unknown>).nextCursor;
    if (items === undefined || report === undefined || (nextCursor !== undefined && (typeof nextCursor !== 'string' || nextCursor === ''))) {
      const { items: parsed, ...envelope } = parseProviderResult(results.memoryListPageShellSchema, raw, description);
      return { ...envelope, items: parsed };
    }
    const envelope: ListEnvelope = { ...report, items };
    if (nextCursor !== undefined) envelope.nextCursor = nextCursor;
    return envelope;
  });
}

/** The checked snippets of a result's array, which is read by hand: anything it throws is `MemoryInvalidResponseError`. */
function parseSnippetArray(
  values: unknown[],
  scope: MemoryScope,
  warnings: MemoryWarning[],
  checks: { description: string; pathPrefix: string; limit?: number },
): MemorySnippet[] {
  return readProviderResult(values, checks.description, checks.pathPrefix, () => parseScopedSnippets(values, scope, warnings, checks));
}

function assertSourceInScope(source: MemorySourceRef | undefined, scope: MemoryScope): void {
  if (source !== undefined && source.companyId !== scope.companyId) {
    throw new MemoryScopeViolationError({
      message: `source.companyId (${source.companyId}) differs from scope.companyId (${scope.companyId}).`,
    });
  }
}

/**
 * Turns an implementation into a `MemoryAdapter` that keeps the contract's promises:
 * - every request is validated with zod first; a bad one throws `MemoryValidationError`
 *   naming the field, and the implementation is never called;
 * - a write whose source belongs to another company throws `MemoryScopeViolationError`;
 * - optional surfaces whose capability flag is off throw `UnsupportedCapabilityError`;
 * - every result is validated; a malformed one throws `MemoryInvalidResponseError`;
 * - records outside the requested scope are dropped and reported as warnings;
 * - handles issued by another adapter never reach the implementation;
 * - every result carries `warnings` and usage with a measured `latencyMs`.
 *
 * The returned object keeps `implementation` under a non-enumerable symbol
 * (`memoryAdapterImplementationOf`), so the conformance suite can see what the implementation
 * returned before this wrapper repaired it.
 */
export function defineMemoryAdapter(implementation: MemoryAdapterImplementation): MemoryAdapter {
  const capabilities: MemoryAdapterCapabilities = parseInput(
    results.memoryAdapterCapabilitiesSchema,
    implementation.capabilities,
    'capability manifest',
    'capabilities',
  );
  const key = implementation.key;
  const scopeOf = (scope: unknown) => copyValidScope(scope) ?? parseInput(memoryScopeSchema, scope, 'scope', 'scope');
  const handleOf = (handle: unknown) => parseInput(requests.memoryRecordHandleSchema, handle, 'handle', 'handle');
  const isOwnHandle = (handle: MemoryRecordHandle) => handle.providerKey === key;

  async function run<Result extends Reported>(
    description: string,
    schema: z.ZodType | ((raw: unknown, description: string) => Result),
    call: () => Promise<unknown>,
    extraWarnings: MemoryWarning[] = [],
  ): Promise<Result & { usage: MemoryUsage[]; warnings: MemoryWarning[] }> {
    const started = performance.now();
    const raw = await call();
    const latencyMs = performance.now() - started;
    const parsed =
      typeof schema === 'function'
        ? schema(raw, `${key} ${description}`)
        : (parseProviderResult(schema, raw, `${key} ${description}`) as Result);
    const warnings = parsed.warnings === undefined || parsed.warnings.length === 0 ? extraWarnings : [...extraWarnings, ...parsed.warnings];
    return { ...parsed, usage: fillUsage(key, parsed.usage, latencyMs), warnings };
  }

  function requireCapability<Operation>(
    flag: keyof MemoryAdapterCapabilities,
    operation: Operation | undefined,
    name: string,
  ): Operation {
    if (capabilities[flag] !== true || operation === undefined) {
      throw new UnsupportedCapabilityError({ capability: name, provider: key });
    }
    return operation;
  }

  function filterWarnings(metadataFilter: unknown): MemoryWarning[] {
    if (metadataFilter === undefined || capabilities.metadataFilter === true) return [];
    return [{ type: 'unsupported', feature: 'metadataFilter', details: 'The filter was ignored.' }];
  }

  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key,
    capabilities,

    async capture(request) {
      const valid = parseInput(requests.memoryCaptureRequestSchema, request, 'capture request');
      assertSourceInScope(valid.source, valid.scope);
      return run('capture result', results.memoryCaptureResultSchema, () => implementation.capture(valid));
    },

    async upsertRecords(request) {
      const valid = parseInput(requests.memoryRecordWriteRequestSchema, request, 'upsertRecords request');
      assertSourceInScope(valid.source, valid.scope);
      return run('upsertRecords result', results.memoryRecordWriteResultSchema, () =>
        implementation.upsertRecords(valid),
      );
    },

    async query(request) {
      const valid = copyValidQueryRequest(request) ?? parseInput(requests.memoryQueryRequestSchema, request, 'query request');
      const bundle = await run('query result', parseQueryEnvelope, () => implementation.query(valid), filterWarnings(valid.metadataFilter));
      const checks = { description: `${key} query result`, pathPrefix: 'snippets', limit: valid.topK ?? 10 };
      bundle.snippets = withRelevance(parseSnippetArray(bundle.snippets, valid.scope, bundle.warnings, checks));
      return bundle as MemoryContextBundle;
    },

    async list(request) {
      const valid = copyValidListRequest(request) ?? parseInput(requests.memoryListRequestSchema, request, 'list request');
      const page = await run('list result', parseListEnvelope, () => implementation.list(valid), filterWarnings(valid.metadataFilter));
      page.items = parseSnippetArray(page.items, valid.scope, page.warnings, { description: `${key} list result`, pathPrefix: 'items' });
      return page as MemoryListPage;
    },

    async get(handle, scope) {
      const validHandle = handleOf(handle);
      const validScope = scopeOf(scope);
      if (!isOwnHandle(validHandle)) return null;
      const snippet = parseProviderResult(
        results.nullableSnippetSchema,
        await implementation.get(validHandle, validScope),
        `${key} get result`,
      );
      if (snippet === null || findScopeViolation(snippet, validScope) !== undefined) return null;
      return snippet;
    },

    async forget(handles, scope) {
      const validHandles = parseInput(requests.handleListSchema, handles, 'forget handles', 'handles');
      const validScope = scopeOf(scope);
      const own = validHandles.filter(isOwnHandle);
      const skipped: MemoryWarning[] = validHandles
        .filter((handle) => !isOwnHandle(handle))
        .map((handle) => ({
          type: 'other',
          message: `Skipped handle ${handle.providerRecordId}: it was issued by ${handle.providerKey}, not ${key}.`,
        }));
      return run('forget result', results.memoryForgetResultSchema, () => implementation.forget(own, validScope), skipped);
    },

    async correct(handle, patch, scope) {
      const correct = requireCapability('correction', implementation.correct, 'correct');
      const validHandle = handleOf(handle);
      const validPatch = parseInput(requests.memoryCorrectionPatchSchema, patch, 'correction patch', 'patch');
      const validScope = scopeOf(scope);
      if (!isOwnHandle(validHandle)) throw new MemoryNotFoundError({ resourceId: validHandle.providerRecordId });
      return run('correct result', results.memoryCorrectionResultSchema, () =>
        correct(validHandle, validPatch, validScope),
      );
    },

    async profile(scope) {
      const profile = requireCapability('profile', implementation.profile, 'profile');
      const validScope = scopeOf(scope);
      const result = await run<z.output<typeof results.memoryProfileSchema>>(
        'profile result',
        results.memoryProfileSchema,
        () => profile(validScope),
      );
      return result.items === undefined
        ? result
        : { ...result, items: dropOutOfScope(result.items, validScope, result.warnings) };
    },

    async getExtractionJob(providerJobId, scope) {
      const getJob = requireCapability('asyncExtraction', implementation.getExtractionJob, 'getExtractionJob');
      const validId = parseInput(requests.providerJobIdSchema, providerJobId, 'job id', 'providerJobId');
      const validScope = scopeOf(scope);
      const { warnings: _ignored, ...result } = await run<z.output<typeof results.memoryExtractionJobResultSchema>>(
        'getExtractionJob result',
        results.memoryExtractionJobResultSchema,
        () => getJob(validId, validScope),
      );
      return result;
    },

    async listExtractionJobs(scope, cursor) {
      const listJobs = requireCapability('listExtractionJobs', implementation.listExtractionJobs, 'listExtractionJobs');
      const validScope = scopeOf(scope);
      const validCursor = parseInput(requests.optionalCursorSchema, cursor, 'cursor', 'cursor');
      return run('listExtractionJobs result', results.memoryExtractionJobPageSchema, () =>
        listJobs(validScope, validCursor),
      );
    },

    async retryExtractionJob(providerJobId, scope) {
      const retry = requireCapability('retryExtractionJob', implementation.retryExtractionJob, 'retryExtractionJob');
      const validId = parseInput(requests.providerJobIdSchema, providerJobId, 'job id', 'providerJobId');
      const validScope = scopeOf(scope);
      return run('retryExtractionJob result', results.memoryExtractionRetryResultSchema, () =>
        retry(validId, validScope),
      );
    },

    async explain(result, scope) {
      const explain = requireCapability('explain', implementation.explain, 'explain');
      const validResult = parseInput(results.memoryContextBundleSchema, result, 'query result', 'result');
      const validScope = scopeOf(scope);
      const { warnings: _ignored, ...explanation } = await run<z.output<typeof results.memoryExplanationSchema>>(
        'explain result',
        results.memoryExplanationSchema,
        () => explain(validResult, validScope),
      );
      return explanation;
    },
  };
  Object.defineProperty(adapter, memoryAdapterImplementationKey, { value: implementation, enumerable: false });
  return adapter;
}
