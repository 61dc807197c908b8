import type { MemoryAdapter } from '@memplane/core';
import type { TestServer } from '@memplane/test-server';
import { createMem0Adapter } from '../mem0-adapter';
import type { Mem0Fake } from './mem0-fake-server';
import type { Mem0AdapterSettings } from '../mem0-settings';

/** The cursor secret every test adapter shares, so peers accept each other's cursors. */
export const testCursorSecret = 'mem0-test-cursor-secret-0123456789';

/**
 * An adapter over the fake, tuned for tests: short timeouts, and a retry policy that gives
 * up at once on long Retry-After waits and backs off by at most a millisecond, so no test
 * sleeps. Test-only.
 */
export function createTestAdapter(fake: Mem0Fake, overrides: Mem0AdapterSettings = {}): MemoryAdapter {
  return createMem0Adapter({
    apiKey: fake.apiKey,
    baseURL: fake.host,
    cursorSecret: testCursorSecret,
    timeoutMs: 200,
    retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 50 },
    ...overrides,
  });
}

/** The JSON bodies of the recorded calls to a path, in order. */
export function bodiesTo(testServer: TestServer, method: string, pathname: string): unknown[] {
  return testServer.calls.filter((call) => call.method === method && call.pathname === pathname).map((call) => call.bodyJson);
}
