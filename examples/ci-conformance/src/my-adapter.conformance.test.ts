import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { createAdapter, createPeerAdapter, faults } from '../conformance-entry.js';

// One vitest test per conformance rule. Only the adapter's capability manifest skips rules:
// a surface it does not declare, or an operation it leaves out of `remoteOperations`, each
// skip with the reason shown. There is no skip list.
describeMemoryAdapterConformance({
  name: 'memory',
  createAdapter,
  createPeerAdapter,
  faults,
});
