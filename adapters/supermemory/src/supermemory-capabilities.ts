import type { MemoryAdapterCapabilities } from '@memplane/core';

/**
 * What the Supermemory adapter can do beyond the required operations, as observed by the
 * conformance suite over the fake (see the README's capability table for the reasons):
 * - `correction`: `memories.updateMemory` (versioned) and `documents.update`;
 * - `profile`: `client.profile`;
 * - `providerManagedExtraction` and `asyncExtraction`: captured documents are processed by
 *   Supermemory, and their processing status is the job status;
 * - `listExtractionJobs`: the captured documents of the container with their statuses;
 * - `providerNativeBrowse`: documents and memory entries have their own list endpoints;
 * - `metadataFilter`: applied by Supermemory on scalar values and checked again after retrieval.
 * Not declared: `retryExtractionJob` (Supermemory has no retry; re-adding is a new capture),
 * `explain` (only a similarity score) and `multimodal` (the adapter sends text; it does not upload files).
 */
export const supermemoryCapabilities = {
  correction: true,
  profile: true,
  providerManagedExtraction: true,
  asyncExtraction: true,
  listExtractionJobs: true,
  providerNativeBrowse: true,
  metadataFilter: true,
  retryExtractionJob: false,
  explain: false,
  multimodal: false,
} as const satisfies MemoryAdapterCapabilities;
