import { defineBrokenAdapter, withoutAgent } from './define-broken-adapter';
import type { AdapterBreaker } from './wrap-adapter';

/** Test-only broken variant (scope): forget drops the request's agentId, so one agent forgets another's record. */
export const forgetIgnoresAgent: AdapterBreaker = defineBrokenAdapter((inner) => ({
  forget: (handles, scope) => inner.forget(handles, withoutAgent(scope)),
}));

/** Test-only broken variant (scope): get drops the request's agentId; defineMemoryAdapter hides the record it returns. */
export const getIgnoresAgent: AdapterBreaker = defineBrokenAdapter((inner) => ({
  get: (handle, scope) => inner.get(handle, withoutAgent(scope)),
}));

/** Test-only broken variant (scope): correct drops the request's agentId, so one agent rewrites another's record. */
export const correctIgnoresAgent: AdapterBreaker = defineBrokenAdapter((inner) => ({
  correct: (handle, patch, scope) => inner.correct(handle, patch, withoutAgent(scope)),
}));
