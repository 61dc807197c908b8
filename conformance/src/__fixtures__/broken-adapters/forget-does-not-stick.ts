import type { MemorySnippet } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (forget): forget works on get, but list keeps serving the forgotten
 * records from a stale cache on its first page, as a provider with a lagging browse index would.
 */
export const forgetDoesNotStick: AdapterBreaker = (inner) => {
  const staleCache: MemorySnippet[] = [];
  return wrapAdapter(inner, {
    async forget(handles, scope) {
      for (const handle of handles) {
        const snippet = await inner.get(handle, scope).catch(() => null);
        if (snippet !== null) staleCache.push(snippet);
      }
      return inner.forget(handles, scope);
    },
    async list(request) {
      const page = await inner.list(request);
      if (request.cursor !== undefined) return page;
      const stale = staleCache.filter((snippet) => snippet.scope?.companyId === request.scope.companyId);
      return { ...page, items: [...page.items, ...stale] };
    },
  });
};
