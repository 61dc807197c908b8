import type { MemoryAdapter } from '@memplane/core';

/**
 * Test-only. Delegates every member to `inner` except the overrides. The result is a plain
 * object, NOT passed through `defineMemoryAdapter`, so core's safety net cannot hide the bug a
 * broken variant plants.
 */
export function wrapAdapter(inner: MemoryAdapter, overrides: Partial<MemoryAdapter> = {}): MemoryAdapter {
  return {
    specificationVersion: inner.specificationVersion,
    key: inner.key,
    capabilities: inner.capabilities,
    capture: (request) => inner.capture(request),
    upsertRecords: (request) => inner.upsertRecords(request),
    query: (request) => inner.query(request),
    list: (request) => inner.list(request),
    get: (handle, scope) => inner.get(handle, scope),
    forget: (handles, scope) => inner.forget(handles, scope),
    correct: (handle, patch, scope) => inner.correct(handle, patch, scope),
    profile: (scope) => inner.profile(scope),
    getExtractionJob: (jobId, scope) => inner.getExtractionJob(jobId, scope),
    listExtractionJobs: (scope, cursor) => inner.listExtractionJobs(scope, cursor),
    retryExtractionJob: (jobId, scope) => inner.retryExtractionJob(jobId, scope),
    explain: (result, scope) => inner.explain(result, scope),
    ...overrides,
  };
}

/** Plants one bug into a real adapter. */
export type AdapterBreaker = (inner: MemoryAdapter) => MemoryAdapter;
