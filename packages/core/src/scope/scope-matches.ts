import { memoryScopeFields, type MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';

/**
 * Whether a record written under `recordScope` is visible to a request with `requestScope`:
 * every field set on the request must equal the record's field. Unset request fields do
 * not constrain; `companyId` is always set, so records never cross companies.
 */
export function scopeMatches(recordScope: MemoryScope, requestScope: MemoryScope): boolean {
  for (const field of memoryScopeFields) {
    const wanted = requestScope[field];
    if (wanted !== undefined && recordScope[field] !== wanted) return false;
  }
  return true;
}

/** Returns a copy of the scope with only the fields that are set, in the stable field order. */
export function normalizeScope(scope: MemoryScope): MemoryScope {
  const normalized: MemoryScope = { companyId: scope.companyId };
  for (const field of memoryScopeFields) {
    const value = scope[field];
    if (value !== undefined) normalized[field] = value;
  }
  return normalized;
}
