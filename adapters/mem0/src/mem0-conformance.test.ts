import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { createTestAdapter } from './testing/mem0-test-support';

let extractionFailure = () => false;
const fake = createMem0Fake({ isExtractionFailureInForce: () => extractionFailure() });
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
extractionFailure = () => testServer.faults.isExtractionFailureInForce();

describeMemoryAdapterConformance({
  name: '@memplane/mem0 over the msw fake of the mem0 platform',
  createAdapter: () => createTestAdapter(fake),
  createPeerAdapter: () => createTestAdapter(fake),
  waitForConsistency: () => fake.drain(),
  faults: testServer.faults,
});
