import { defineBrokenAdapter, withoutAgent } from './define-broken-adapter';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/** Test-only broken variant (scope): list drops the request's agentId; a plain object, no wrapper. */
export const ignoresAgentOnList: AdapterBreaker = (inner) =>
  wrapAdapter(inner, { list: (request) => inner.list({ ...request, scope: withoutAgent(request.scope) }) });

/**
 * Test-only broken variant (scope): the same bug written through `defineMemoryAdapter`, which
 * drops the other agent's records and adds a `scope_violation` warning. The suite must still fail it.
 */
export const ignoresAgentOnListWrapped: AdapterBreaker = defineBrokenAdapter((inner) => ({
  list: (request) => inner.list({ ...request, scope: withoutAgent(request.scope) }),
}));
