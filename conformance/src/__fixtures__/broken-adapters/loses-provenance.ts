import type { MemorySnippet } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

function lossy(snippet: MemorySnippet): MemorySnippet {
  const metadata =
    snippet.metadata === undefined
      ? undefined
      : Object.fromEntries(Object.entries(snippet.metadata).filter(([, value]) => value !== null));
  return {
    ...snippet,
    ...(snippet.source === undefined ? {} : { source: { kind: snippet.source.kind, companyId: snippet.source.companyId } }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/**
 * Test-only broken variant (provenance): reads keep only the kind and company of the source
 * ref and drop metadata keys whose value is null, as a lossy store would.
 */
export const losesProvenance: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    async get(handle, scope) {
      const snippet = await inner.get(handle, scope);
      return snippet === null ? null : lossy(snippet);
    },
    async list(request) {
      const page = await inner.list(request);
      return { ...page, items: page.items.map(lossy) };
    },
    async query(request) {
      const bundle = await inner.query(request);
      return { ...bundle, snippets: bundle.snippets.map(lossy) };
    },
  });
