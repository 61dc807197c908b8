import { describeMemoryAdapterConformance } from '@memplane/conformance';
import type { MemoryEngine } from '../engine/memory-engine';
import { letterCountEmbedder } from '../testing/mock-models';
import { createEngineForAdapter, engineAdapterOver, type EngineAdapterSettings } from './engine-adapter';

// The whole suite on the in-memory store, zero-config and with an embedding model (vector recall
// fused with lexical recall). Peers are second adapter objects over the same engine (the in-memory
// store lives in the process). No fault switch: nothing is remote (remoteOperations: []).
function suite(name: string, settings: () => Omit<EngineAdapterSettings, 'cursorSecret'>): void {
  let latest: MemoryEngine | undefined;
  describeMemoryAdapterConformance({
    name,
    createAdapter: async () => {
      latest = await createEngineForAdapter(settings());
      return engineAdapterOver(latest);
    },
    createPeerAdapter: () => engineAdapterOver(latest as MemoryEngine),
  });
}

suite('@memplane/engine (in-memory store, zero-config)', () => ({}));
suite('@memplane/engine (in-memory store, with an embedding model)', () => ({ profiles: { default: { embeddingModel: letterCountEmbedder() } } }));
