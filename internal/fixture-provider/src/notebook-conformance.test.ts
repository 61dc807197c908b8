import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { createNotebookAdapter } from './notebook-adapter';

// The fixture is held to the whole contract, as any adapter a host may load: peers share a
// notebook by name. No fault switch: every operation runs in the process (remoteOperations: []).
let latest = 0;
describeMemoryAdapterConformance({
  name: '@memplane-fixtures/notebook-provider',
  createAdapter: () => createNotebookAdapter({ notebook: `conformance-${(latest += 1)}` }),
  createPeerAdapter: () => createNotebookAdapter({ notebook: `conformance-${latest}` }),
});
