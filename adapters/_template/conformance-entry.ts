/**
 * The conformance module for the CLI: `npx memplane-conformance ./conformance-entry.ts`.
 * It serves the fake Example API on msw in this process, so the CLI checks the adapter
 * offline exactly as `src/example-adapter.conformance.test.ts` does under vitest.
 */
import { createTestServer } from '@memplane/test-server';
import { createExampleAdapter } from './src/example-adapter';
import { createExampleFakeApi, exampleFaultSettings } from './src/example-fake-server';
import type { ExampleAdapterSettings } from './src/example-settings';

const api = createExampleFakeApi();
const testServer = createTestServer(api.handlers, exampleFaultSettings(api));
testServer.start();

const settings: ExampleAdapterSettings = {
  apiKey: api.apiKey,
  baseURL: api.baseURL,
  cursorSecret: 'conformance cursor secret of the example binding',
  timeoutMs: 500,
  retry: { maxRetries: 1, initialDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 1000 },
};

/** The fault injector of the fake API, for the `errors` rules. */
export const faults = testServer.faults;

/** A fresh adapter over the fake API. */
export function createAdapter() {
  return createExampleAdapter(settings);
}

/** A second adapter over the same fake API, for the `scope.peer` rules. */
export function createPeerAdapter() {
  return createExampleAdapter(settings);
}
