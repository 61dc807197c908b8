import type { MemoryScope } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (scope): query and list also return the records of every other
 * company this adapter object has written for, as a provider that ignores the tenant filter would.
 */
export const leaksOtherCompanies: AdapterBreaker = (inner) => {
  const companies = new Set<string>();
  const remember = (scope: MemoryScope) => companies.add(scope.companyId);
  const others = (scope: MemoryScope) => [...companies].filter((companyId) => companyId !== scope.companyId);
  return wrapAdapter(inner, {
    async upsertRecords(request) {
      remember(request.scope);
      return inner.upsertRecords(request);
    },
    async capture(request) {
      remember(request.scope);
      return inner.capture(request);
    },
    async query(request) {
      const bundle = await inner.query(request);
      for (const companyId of others(request.scope)) {
        const leaked = await inner.query({ ...request, scope: { ...request.scope, companyId } });
        bundle.snippets.push(...leaked.snippets);
      }
      return bundle;
    },
    async list(request) {
      const page = await inner.list(request);
      if (request.cursor !== undefined) return page;
      for (const companyId of others(request.scope)) {
        const leaked = await inner.list({ ...request, scope: { ...request.scope, companyId } });
        page.items.push(...leaked.items);
      }
      return page;
    },
  });
};
