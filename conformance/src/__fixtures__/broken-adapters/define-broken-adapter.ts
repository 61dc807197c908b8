import { defineMemoryAdapter, type MemoryAdapter, type MemoryAdapterImplementation, type MemoryScope } from '@memplane/core';
import type { AdapterBreaker } from './wrap-adapter';

/** Test-only. The scope without its agentId, as an adapter that forgets to map it would send it. */
export function withoutAgent(scope: MemoryScope): MemoryScope {
  const { agentId: _ignored, ...rest } = scope;
  return rest;
}

/** The reference adapter as an implementation: every operation delegates to it. */
function implementationFrom(inner: MemoryAdapter): MemoryAdapterImplementation {
  const flags = inner.capabilities;
  return {
    key: inner.key,
    capabilities: inner.capabilities,
    capture: (request) => inner.capture(request),
    upsertRecords: (request) => inner.upsertRecords(request),
    query: (request) => inner.query(request),
    list: (request) => inner.list(request),
    get: (handle, scope) => inner.get(handle, scope),
    forget: (handles, scope) => inner.forget(handles, scope),
    ...(flags.correction === true ? { correct: (handle, patch, scope) => inner.correct(handle, patch, scope) } : {}),
    ...(flags.profile === true ? { profile: (scope) => inner.profile(scope) } : {}),
    ...(flags.asyncExtraction === true ? { getExtractionJob: (id, scope) => inner.getExtractionJob(id, scope) } : {}),
    ...(flags.listExtractionJobs === true ? { listExtractionJobs: (scope, cursor) => inner.listExtractionJobs(scope, cursor) } : {}),
    ...(flags.retryExtractionJob === true ? { retryExtractionJob: (id, scope) => inner.retryExtractionJob(id, scope) } : {}),
    ...(flags.explain === true ? { explain: (result, scope) => inner.explain(result, scope) } : {}),
  };
}

/**
 * Test-only. Plants a bug the recommended way: the overrides replace operations of an
 * implementation that delegates to the reference adapter, and the result goes through
 * `defineMemoryAdapter`, so core's safety net is in place and the suite must see past it.
 */
export function defineBrokenAdapter(overrides: (inner: MemoryAdapter) => Partial<MemoryAdapterImplementation>): AdapterBreaker {
  return (inner) => defineMemoryAdapter({ ...implementationFrom(inner), ...overrides(inner) });
}
