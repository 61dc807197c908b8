import type { MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import type { MemoryWarning } from '../memory-adapter/v1/memory-adapter-v1-warning';
import { scopeMatches } from '../scope/scope-matches';

/** Why a snippet is outside the requested scope, or undefined when it is inside. */
export function findScopeViolation(snippet: MemorySnippet, scope: MemoryScope): string | undefined {
  if (snippet.source !== undefined && snippet.source.companyId !== scope.companyId) {
    return 'its source belongs to another company';
  }
  if (snippet.scope !== undefined && !scopeMatches(snippet.scope, scope)) {
    return 'its scope does not match the requested scope';
  }
  return undefined;
}

/**
 * Drops every snippet outside the requested scope and reports each as a
 * `scope_violation` warning. This is the second line of defence: adapters filter at
 * the provider, and this catches whatever a faulty provider still returns.
 */
export function dropOutOfScope(
  snippets: MemorySnippet[],
  scope: MemoryScope,
  warnings: MemoryWarning[],
): MemorySnippet[] {
  return snippets.filter((snippet) => {
    const violation = findScopeViolation(snippet, scope);
    if (violation === undefined) return true;
    warnings.push({ type: 'scope_violation', providerRecordId: snippet.handle.providerRecordId, details: violation });
    return false;
  });
}
