import { defineMemoryAdapter, type MemoryAdapter } from '@memplane/core';
import type { ConformanceOptions } from '../conformance-options';
import { referenceOptions } from './broken-adapters/reference-options';

/**
 * Test-only. An adapter with only the six required operations, built the way adapter authors
 * build theirs (through `defineMemoryAdapter`), over the reference adapter's storage. Its
 * manifest declares no optional surface, so the suite must skip every rule that needs one and
 * check instead that each surface throws UnsupportedCapabilityError.
 */
function minimal(inner: MemoryAdapter): MemoryAdapter {
  return defineMemoryAdapter({
    key: inner.key,
    capabilities: {},
    capture: (request) => inner.capture(request),
    upsertRecords: (request) => inner.upsertRecords(request),
    // The minimal manifest does not declare metadataFilter, so the filter must not reach storage.
    query: ({ metadataFilter: _ignored, ...request }) => inner.query(request),
    list: ({ metadataFilter: _ignored, ...request }) => inner.list(request),
    get: (handle, scope) => inner.get(handle, scope),
    forget: (handles, scope) => inner.forget(handles, scope),
  });
}

/** Test-only. Conformance options for the minimal adapter. */
export function minimalAdapterOptions(): ConformanceOptions {
  return referenceOptions('minimal adapter', minimal);
}
