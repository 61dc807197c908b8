import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';

/*
 * These run for every record of every page, twice (adapter and core), so the fields are
 * spelled out: named property reads stay monomorphic, where a loop over field names makes
 * every read a keyed lookup. The tests walk `memoryScopeFields`, so a field added there
 * and forgotten here fails them.
 */

/**
 * Whether a record written under `recordScope` is visible to a request with `requestScope`:
 * every field set on the request must equal the record's field. Unset request fields do
 * not constrain; `companyId` is always set, so records never cross companies.
 */
export function scopeMatches(recordScope: MemoryScope, requestScope: MemoryScope): boolean {
  return (
    recordScope.companyId === requestScope.companyId &&
    (requestScope.agentId === undefined || recordScope.agentId === requestScope.agentId) &&
    (requestScope.projectId === undefined || recordScope.projectId === requestScope.projectId) &&
    (requestScope.issueId === undefined || recordScope.issueId === requestScope.issueId) &&
    (requestScope.runId === undefined || recordScope.runId === requestScope.runId) &&
    (requestScope.subjectId === undefined || recordScope.subjectId === requestScope.subjectId) &&
    (requestScope.sessionKey === undefined || recordScope.sessionKey === requestScope.sessionKey) &&
    (requestScope.namespace === undefined || recordScope.namespace === requestScope.namespace)
  );
}

/** Returns a copy of the scope with only the fields that are set, in the stable field order. */
export function normalizeScope(scope: MemoryScope): MemoryScope {
  const normalized: MemoryScope = { companyId: scope.companyId };
  if (scope.agentId !== undefined) normalized.agentId = scope.agentId;
  if (scope.projectId !== undefined) normalized.projectId = scope.projectId;
  if (scope.issueId !== undefined) normalized.issueId = scope.issueId;
  if (scope.runId !== undefined) normalized.runId = scope.runId;
  if (scope.subjectId !== undefined) normalized.subjectId = scope.subjectId;
  if (scope.sessionKey !== undefined) normalized.sessionKey = scope.sessionKey;
  if (scope.namespace !== undefined) normalized.namespace = scope.namespace;
  return normalized;
}
