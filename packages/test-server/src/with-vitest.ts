import type { RequestHandler } from 'msw';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createTestServer, type TestServer, type TestServerSettings } from './create-test-server';

/**
 * Creates a test server for the current test file: it starts before the first test,
 * is reset after each test (handlers added with `use`, calls and faults) and stops
 * after the last. Call it at the top level of the file or of a `describe`.
 */
export function setupTestServer(handlers: RequestHandler[] = [], settings: TestServerSettings = {}): TestServer {
  const testServer = createTestServer(handlers, settings);
  beforeAll(() => testServer.start());
  afterEach(() => testServer.reset());
  afterAll(() => testServer.stop());
  return testServer;
}

export type { RecordedCall } from './recorded-call';
export type { TestServer, TestServerSettings } from './create-test-server';
