import type { AgentCoreFakeStore, FakeMetadataFilter } from './agentcore-fake-store';

/**
 * The metadata-filter rules of `ListMemoryRecords` and `RetrieveMemoryRecords` (test-only),
 * each with the document that states it, so the fake refuses what AgentCore refuses instead
 * of accepting whatever the adapter sends.
 */

/**
 * At most 5 filters, at least 1 when the member is sent.
 * Source: API_SearchCriteria.html and API_ListMemoryRecords.html, `metadataFilters`:
 * "Array Members: Minimum number of 1 item. Maximum number of 5 items"; the developer guide
 * page long-term-memory-metadata.html: "Combine up to 5 filters per query ... applied with AND logic".
 */
export const maximumFiltersPerCall = 5;

/**
 * Keys a filter may name without being declared: the system timestamps.
 * Source: long-term-memory-metadata.html, "Filter on system-generated timestamps
 * (x-amz-agentcore-memory-createdAt, x-amz-agentcore-memory-updatedAt) without declaring
 * additional indexed keys".
 */
export const systemFilterKeys = new Set(['x-amz-agentcore-memory-createdAt', 'x-amz-agentcore-memory-updatedAt']);

/**
 * The operators of a record filter. Source: API_MemoryMetadataFilterExpression.html, `operator`
 * (EQUALS_TO | EXISTS | NOT_EXISTS | BEFORE | AFTER | CONTAINS | GREATER_THAN ...). The fake
 * evaluates the first three; it refuses the others as not emulated rather than guess at them.
 */
const emulatedOperators = new Set(['EQUALS_TO', 'EXISTS', 'NOT_EXISTS']);
const documentedOperators = new Set([
  'EQUALS_TO', 'EXISTS', 'NOT_EXISTS', 'BEFORE', 'AFTER', 'CONTAINS',
  'GREATER_THAN', 'GREATER_THAN_OR_EQUALS', 'LESS_THAN', 'LESS_THAN_OR_EQUALS',
]);

/**
 * Why the `metadataFilters` of a list or retrieve call are refused, or undefined. A key must
 * be declared as an indexed key of the memory. Source: developer guide memory-api.html,
 * `MetadataFilters`: "You can only specify filter keys that are declared as indexed keys in
 * the memory resource"; CreateMemoryInput.indexedKeys in the control-plane SDK
 * (`@aws-sdk/client-bedrock-agentcore-control` dist-types/models/models_1.d.ts): "Only indexed
 * keys can be used in metadata filters".
 */
export function checkMetadataFilters(store: AgentCoreFakeStore, filters: unknown): string | undefined {
  if (filters === undefined) return undefined;
  if (!Array.isArray(filters)) return 'metadataFilters must be a list.';
  if (filters.length < 1 || filters.length > maximumFiltersPerCall) {
    return `metadataFilters has ${filters.length} items; it must hold 1 to ${maximumFiltersPerCall}.`;
  }
  for (const filter of filters as FakeMetadataFilter[]) {
    const key = filter.left?.metadataKey;
    const operator = String(filter.operator);
    if (typeof key !== 'string' || key === '') return 'metadataFilters.left.metadataKey is required.';
    if (!documentedOperators.has(operator)) return `metadataFilters.operator ${operator} is not a valid operator.`;
    if (!emulatedOperators.has(operator)) return `operator ${operator} is not emulated by the fake`;
    if (!systemFilterKeys.has(key) && !store.indexedKeys.has(key)) {
      return `Metadata filter key ${key} is not an indexed key of memory ${store.memoryId}. Declare it with UpdateMemory addIndexedKeys.`;
    }
    // API_MemoryMetadataFilterExpression.html: `right` is required for every operator but EXISTS and NOT_EXISTS.
    if ((operator === 'EQUALS_TO') !== (filter.right !== undefined)) return `metadataFilters.right is required for ${operator} and only for it.`;
  }
  return undefined;
}
