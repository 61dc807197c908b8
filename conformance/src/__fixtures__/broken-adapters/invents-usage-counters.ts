import type { MemoryAdapter, MemoryUsage } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

function inventCounters<Result extends { usage?: MemoryUsage[] }>(result: Result): Result {
  return {
    ...result,
    usage: (result.usage ?? []).map(({ raw: _dropped, ...entry }) => ({ ...entry, inputTokens: 0, outputTokens: 0 })),
  };
}

/** Test-only broken variant (usage): every usage entry claims zero input and output tokens, with no raw payload. */
export const inventsUsageCounters: AdapterBreaker = (inner: MemoryAdapter) =>
  wrapAdapter(inner, {
    capture: async (request) => inventCounters(await inner.capture(request)),
    upsertRecords: async (request) => inventCounters(await inner.upsertRecords(request)),
    query: async (request) => inventCounters(await inner.query(request)),
    list: async (request) => inventCounters(await inner.list(request)),
    forget: async (handles, scope) => inventCounters(await inner.forget(handles, scope)),
    correct: async (handle, patch, scope) => inventCounters(await inner.correct(handle, patch, scope)),
    profile: async (scope) => inventCounters(await inner.profile(scope)),
    getExtractionJob: async (jobId, scope) => inventCounters(await inner.getExtractionJob(jobId, scope)),
    listExtractionJobs: async (scope, cursor) => inventCounters(await inner.listExtractionJobs(scope, cursor)),
    retryExtractionJob: async (jobId, scope) => inventCounters(await inner.retryExtractionJob(jobId, scope)),
    explain: async (result, scope) => inventCounters(await inner.explain(result, scope)),
  });
