import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { createAdapter, createPeerAdapter, faults } from '../conformance-entry';

// The full suite, with nothing skipped: the reference adapter declares every surface but
// multimodal capture and native browse, and has a fault switch and peers over one store.
// It runs through the same entry the conformance CLI loads (conformance-entry.ts).
describeMemoryAdapterConformance({
  name: '@memplane/memory',
  createAdapter,
  createPeerAdapter,
  faults,
});
