import { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import type { MemoryAdapter } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { beforeEach } from 'vitest';
import { createAgentCoreAdapter } from '../agentcore-adapter';
import { agentCoreIndexedKeys } from '../agentcore-scope-mapping';
import { agentCoreControlEndpoint, createAgentCoreFakeControlHandlers } from './agentcore-fake-control-handlers';
import { createAgentCoreFakeHandlers, type RejectRecord } from './agentcore-fake-handlers';
import { agentCoreEndpoint } from './agentcore-fake-responses';
import { createAgentCoreFakeStore } from './agentcore-fake-store';
import type { AgentCoreAdapterSettings } from '../agentcore-settings';

/** The region of the fake. */
export const testRegion = 'us-east-1';
/** The memory the fake serves. */
export const testMemoryId = 'memplane_test-AbCdEf0123';

// The SDK warns once per process on Node 20; tests build many clients and want a clean log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** A client like a user would build: static credentials, one attempt (the adapter retries). */
export function createTestClient(): BedrockAgentCoreClient {
  return new BedrockAgentCoreClient({
    region: testRegion,
    credentials: { accessKeyId: 'AKIDMEMPLANETEST', secretAccessKey: 'memplane-test-secret' },
    maxAttempts: 1,
  });
}

/** Settings that keep fault tests fast: short timeouts, millisecond backoff, no long Retry-After waits. */
export const fastFailureSettings = {
  timeoutMs: 500,
  retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 1000 },
} satisfies Partial<AgentCoreAdapterSettings>;

/**
 * The test environment of one test file: a fresh fake AgentCore per test behind an msw test
 * server (faults answer first at the AgentCore endpoint, with `x-amzn-errortype`), and
 * factories of adapters and SDK clients over it. Call at the top level of a test file.
 */
export function setupAgentCoreTestEnvironment() {
  let rejectRecord: RejectRecord | undefined;
  const fake = createAgentCoreFakeStore({
    memoryId: testMemoryId,
    isExtractionFailureInForce: () => server.faults.isExtractionFailureInForce(),
    // A memory set up the way the README asks: the adapter's filter keys declared as indexed keys.
    indexedKeys: agentCoreIndexedKeys.map((key) => ({ key, type: 'STRING' })),
  });
  const server = setupTestServer(
    [
      ...createAgentCoreFakeHandlers(fake, { region: testRegion, rejectRecord: (text) => rejectRecord?.(text) }),
      ...createAgentCoreFakeControlHandlers(fake, { region: testRegion }),
    ],
    {
      faultUrls: [`${agentCoreEndpoint(testRegion)}/*`, `${agentCoreControlEndpoint(testRegion)}/*`],
      faults: {
        decorateError(response, fault) {
          response.headers.set('x-amzn-errortype', fault.kind === 'rate_limited' ? 'ThrottledException' : 'ServiceException');
        },
      },
    },
  );
  beforeEach(() => {
    fake.clear();
    fake.memoryStatus = 'ACTIVE';
    fake.retrievePageLimit = undefined;
    rejectRecord = undefined;
  });
  return {
    fake,
    server,
    /** Rejects the records whose text this function picks, inside an otherwise successful batch. */
    rejectRecords(reject: RejectRecord | undefined): void {
      rejectRecord = reject;
    },
    /** An adapter over the fake with a client built like a user's, and fast failure settings. */
    createAdapter(overrides: Partial<AgentCoreAdapterSettings> = {}): MemoryAdapter {
      return createAgentCoreAdapter({ memoryId: testMemoryId, client: createTestClient(), ...fastFailureSettings, ...overrides });
    },
    createClient: createTestClient,
  };
}
