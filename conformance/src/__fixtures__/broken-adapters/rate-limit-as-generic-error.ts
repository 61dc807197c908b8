import { MemoryApiCallError, MemoryRateLimitedError, type MemoryAdapter } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

async function genericOn429<Result>(call: () => Promise<Result>): Promise<Result> {
  try {
    return await call();
  } catch (error) {
    if (!MemoryRateLimitedError.isInstance(error)) throw error;
    throw new MemoryApiCallError({ message: 'The provider call failed.', isRetryable: false });
  }
}

/** Test-only broken variant (errors): a 429 surfaces as a generic, non-retryable API error without Retry-After. */
export const rateLimitAsGenericError: AdapterBreaker = (inner: MemoryAdapter) =>
  wrapAdapter(inner, {
    capture: (request) => genericOn429(() => inner.capture(request)),
    upsertRecords: (request) => genericOn429(() => inner.upsertRecords(request)),
    query: (request) => genericOn429(() => inner.query(request)),
    list: (request) => genericOn429(() => inner.list(request)),
  });
