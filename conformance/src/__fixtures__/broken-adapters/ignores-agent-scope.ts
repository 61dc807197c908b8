import type { MemoryScope } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

function withoutAgent(scope: MemoryScope): MemoryScope {
  const { agentId: _ignored, ...rest } = scope;
  return rest;
}

/** Test-only broken variant (scope): query and list drop the request's agentId, so agents see each other's records. */
export const ignoresAgentScope: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    query: (request) => inner.query({ ...request, scope: withoutAgent(request.scope) }),
    list: (request) => inner.list({ ...request, scope: withoutAgent(request.scope) }),
  });
