import type { MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import type { MemoryWarning } from '../memory-adapter/v1/memory-adapter-v1-warning';
import { findScopeViolation } from '../define/check-result-scope';
import { parseProviderResult } from './parse-with-schema';
import { memorySnippetSchema } from './result-schemas';
import { copyValidSnippet } from './snippet-fast-path';

/**
 * Checks the snippets of a provider result and their scope in one pass. The fast path copies
 * valid snippets; the first malformed one goes through the zod schema, which throws
 * `MemoryInvalidResponseError` with the path of the bad field (`items.3.text`), even past
 * `limit`. A snippet outside `scope` is dropped and reported as a `scope_violation` warning,
 * and at most `limit` are kept.
 */
export function parseScopedSnippets(
  values: unknown[],
  scope: MemoryScope,
  warnings: MemoryWarning[],
  checks: { description: string; pathPrefix: string; limit?: number },
): MemorySnippet[] {
  const limit = checks.limit ?? values.length;
  const kept: MemorySnippet[] = [];
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    const snippet =
      copyValidSnippet(value) ??
      (parseProviderResult(memorySnippetSchema, value, checks.description, `${checks.pathPrefix}.${index}`) as MemorySnippet);
    const violation = findScopeViolation(snippet, scope);
    if (violation !== undefined) {
      warnings.push({ type: 'scope_violation', providerRecordId: snippet.handle.providerRecordId, details: violation });
    } else if (kept.length < limit) {
      kept.push(snippet);
    }
  }
  return kept;
}
