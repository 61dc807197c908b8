import type { MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import { parseProviderResult } from './parse-with-schema';
import { memorySnippetSchema } from './result-schemas';
import { copyValidSnippet } from './snippet-fast-path';

/**
 * Checks the snippets of a provider result: the fast path copies valid ones, and the first
 * malformed one goes through the zod schema, which throws `MemoryInvalidResponseError` with
 * the path of the bad field (`items.3.text`).
 */
export function parseSnippets(values: unknown[], description: string, pathPrefix: string): MemorySnippet[] {
  return values.map(
    (value, index) =>
      copyValidSnippet(value) ??
      (parseProviderResult(memorySnippetSchema, value, description, `${pathPrefix}.${index}`) as MemorySnippet),
  );
}
