import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { createExampleAdapter } from './example-adapter';
import { setupExampleFakeServer } from './example-fake-server';
import type { ExampleAdapterSettings } from './example-settings';

const { api, testServer } = setupExampleFakeServer();

const settings: ExampleAdapterSettings = {
  apiKey: api.apiKey,
  baseURL: api.baseURL,
  // Peers share the secret, as processes serving one binding would, so cursors travel between them.
  cursorSecret: 'conformance cursor secret of the example binding',
  // Short enough that the timeout fault fails fast; one retry still runs under every fault.
  timeoutMs: 500,
  retry: { maxRetries: 1, initialDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 1000 },
};

describeMemoryAdapterConformance({
  name: 'example',
  createAdapter: () => createExampleAdapter(settings),
  createPeerAdapter: () => createExampleAdapter(settings),
  faults: testServer.faults,
});
