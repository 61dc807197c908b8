import { describeMemoryAdapterConformance } from '@memplane/conformance';
import type { MemoryEngine } from '../engine/memory-engine';
import { createEngineForAdapter, engineAdapterOver } from './engine-adapter';

// The whole suite on the in-memory store. Peers are second adapter objects over the same engine
// (the in-memory store lives in the process). No fault switch: nothing is remote (remoteOperations: []).
let latest: MemoryEngine | undefined;

describeMemoryAdapterConformance({
  name: '@memplane/engine (in-memory store)',
  createAdapter: async () => {
    latest = await createEngineForAdapter();
    return engineAdapterOver(latest);
  },
  createPeerAdapter: () => engineAdapterOver(latest as MemoryEngine),
});
