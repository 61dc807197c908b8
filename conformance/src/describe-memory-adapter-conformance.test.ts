import { referenceOptions } from './__fixtures__/broken-adapters/reference-options';
import { describeMemoryAdapterConformance } from './describe-memory-adapter-conformance';

// The vitest entry, end to end: every rule becomes one test against the reference adapter; the
// surfaces it supports skip their declared-off rules visibly, with the reason as the skip note.
describeMemoryAdapterConformance(referenceOptions('@memplane/memory'));
