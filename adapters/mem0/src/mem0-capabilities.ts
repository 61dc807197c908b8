import type { MemoryAdapterCapabilities } from '@memplane/core';

/**
 * What the mem0 adapter can do beyond the required operations, as observed by the
 * conformance suite over the fake (see the README for the limits of each):
 * - extraction is mem0's own and asynchronous (`add` with `infer: true` returns an event);
 * - events are listed through `GET /v1/events/` and a failed one is retried by re-adding
 *   its original payload, because mem0 has no retry endpoint;
 * - `update` corrects a memory in place, and `getProfile` reads a user's profile;
 * - `getAll` is mem0's own browse surface, and metadata filters are pushed down;
 * - search hits carry a score breakdown, but a query result does not keep it, so `explain`
 *   is not offered; images are not mapped to mem0's `image_url` messages.
 */
export const mem0Capabilities = {
  correction: true,
  profile: true,
  multimodal: false,
  providerManagedExtraction: true,
  asyncExtraction: true,
  providerNativeBrowse: true,
  listExtractionJobs: true,
  retryExtractionJob: true,
  explain: false,
  metadataFilter: true,
} as const satisfies MemoryAdapterCapabilities;
