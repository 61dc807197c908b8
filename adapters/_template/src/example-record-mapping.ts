import {
  scopeMatches,
  type MemoryScope,
  type MemorySnippet,
  type MemorySourceRef,
  type MemoryWarning,
} from '@memplane/core';
import type { ExampleRecord } from './example-api-schemas';
import { toRecordHandle } from './example-handle';
import { fromExampleScope } from './example-scope-mapping';

/** Maps an API record to a snippet. Empty fields the API returns as null are left out. */
export function toSnippet(record: ExampleRecord, score?: number): MemorySnippet {
  const snippet: MemorySnippet = {
    handle: toRecordHandle(record.id),
    text: record.text,
    scope: fromExampleScope(record.tenant, record.labels),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
  if (score !== undefined) snippet.score = score;
  if (record.summary !== null) snippet.summary = record.summary;
  if (record.metadata !== null) snippet.metadata = record.metadata;
  // The adapter wrote the source itself; core validates it again on the way out.
  if (record.source !== null) snippet.source = record.source as unknown as MemorySourceRef;
  return snippet;
}

/** Why an API record is outside the requested scope, or undefined when it is inside. */
export function findExampleScopeViolation(record: ExampleRecord, scope: MemoryScope): string | undefined {
  if (record.tenant !== scope.companyId) return 'the Example API returned a record of another tenant';
  if (!scopeMatches(fromExampleScope(record.tenant, record.labels), scope)) {
    return 'the Example API returned a record whose labels do not match the requested scope';
  }
  if (record.source !== null && record.source.companyId !== scope.companyId) {
    return 'the record source belongs to another company';
  }
  return undefined;
}

/**
 * The adapter's own scope check of everything the API returns. The API already filters by
 * tenant and labels; this catches an API that does not, and reports each dropped record
 * as a `scope_violation` warning instead of passing it on or hiding it.
 */
export function keepInScope<Item extends { record: ExampleRecord }>(
  items: Item[],
  scope: MemoryScope,
  warnings: MemoryWarning[],
): Item[] {
  return items.filter((item) => {
    const violation = findExampleScopeViolation(item.record, scope);
    if (violation === undefined) return true;
    warnings.push({
      type: 'scope_violation',
      providerRecordId: toRecordHandle(item.record.id).providerRecordId,
      details: violation,
    });
    return false;
  });
}
