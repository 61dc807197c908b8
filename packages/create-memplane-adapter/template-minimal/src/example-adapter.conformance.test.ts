import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { createExampleAdapter, createExampleStore } from './example-adapter';

// One store for the adapter and its peer, and one cursor secret, as two processes over the same
// data would have: the scope.peer rules check that records and cursors travel between them.
const store = createExampleStore();
const settings = { store, cursorSecret: 'conformance cursor secret of the example store' };

// One vitest test per rule. Only the capability manifest skips rules: the provider-fault rules
// are skipped because no operation is remote (exampleCapabilities.remoteOperations is empty).
describeMemoryAdapterConformance({
  name: 'example',
  createAdapter: () => createExampleAdapter(settings),
  createPeerAdapter: () => createExampleAdapter(settings),
});
