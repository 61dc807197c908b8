import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { setupSupermemoryFake } from './testing/supermemory-test-setup';

const environment = setupSupermemoryFake();

describeMemoryAdapterConformance({
  name: '@memplane/supermemory over the msw fake',
  createAdapter: () => environment.createAdapter(),
  createPeerAdapter: () => environment.createAdapter(),
  // Finishes every document's processing, as time would; nothing sleeps.
  waitForConsistency: () => environment.fake.store.settle(),
  faults: environment.testServer.faults,
});
