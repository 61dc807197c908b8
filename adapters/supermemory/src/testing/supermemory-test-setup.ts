import type { MemoryAdapter } from '@memplane/core';
import type { RecordedCall, TestServer } from '@memplane/test-server';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { createSupermemoryAdapter } from '../supermemory-adapter';
import { createSupermemoryFake, type SupermemoryFake } from './supermemory-fake-api';
import type { SupermemoryAdapterSettings } from '../supermemory-settings';

/** The base URL the fake answers at: Supermemory's own, so the adapter's defaults are what is tested. */
export const fakeBaseURL = 'https://api.supermemory.ai';

/** The API key tests use; the fake only checks that a Bearer token is sent. */
export const fakeApiKey = 'sm_test_key_0123456789';

/** One cursor secret for an adapter and its peers, as two processes of one deployment would share. */
export const fakeCursorSecret = 'supermemory-tests-cursor-secret';

/** Settings that keep fault tests fast: short timeouts, millisecond backoff, no long Retry-After waits. */
export const fastTestSettings: SupermemoryAdapterSettings = {
  apiKey: fakeApiKey,
  timeoutMs: 250,
  retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 1000 },
  cursorSecret: fakeCursorSecret,
};

/** A test file's fake Supermemory: the msw server (faults at every fake URL), the fake and an adapter factory. */
export interface SupermemoryTestEnvironment {
  testServer: TestServer;
  fake: SupermemoryFake;
  createAdapter(settings?: SupermemoryAdapterSettings): MemoryAdapter;
}

/**
 * Sets up the fake for the current test file (call at top level): msw listens before the
 * first test and refuses unhandled requests, faults answer first at every fake URL, and
 * `extraction_failure` makes documents added while it is in force fail processing.
 */
export function setupSupermemoryFake(): SupermemoryTestEnvironment {
  let server: TestServer | undefined;
  const fake = createSupermemoryFake({
    baseURL: fakeBaseURL,
    isExtractionFailureInForce: () => server?.faults.isExtractionFailureInForce() ?? false,
  });
  server = setupTestServer(fake.handlers, { faultUrls: [`${fakeBaseURL}/*`] });
  const testServer = server;
  return {
    testServer,
    fake,
    createAdapter: (settings = {}) => createSupermemoryAdapter({ ...fastTestSettings, ...settings }),
  };
}

/** Marks the calls recorded so far; the returned function lists the calls made after the mark. */
export function callsAfterNow(testServer: TestServer): () => RecordedCall[] {
  const mark = testServer.calls.length;
  return () => testServer.calls.slice(mark);
}
