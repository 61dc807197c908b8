import type { MemoryListRequest } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (pagination): a cursor is honoured with whatever scope and filter it
 * was issued for, ignoring the scope and filter of the request that presents it.
 */
export const acceptsForeignCursors: AdapterBreaker = (inner) => {
  const issuedFor = new Map<string, MemoryListRequest>();
  return wrapAdapter(inner, {
    async list(request) {
      const original = request.cursor === undefined ? undefined : issuedFor.get(request.cursor);
      const effective = original === undefined ? request : { ...request, scope: original.scope, metadataFilter: original.metadataFilter };
      const page = await inner.list(effective);
      if (page.nextCursor !== undefined) issuedFor.set(page.nextCursor, effective);
      return page;
    },
  });
};
