import type { MemoryAdapterCapabilities } from '@memplane/core';

/**
 * What the Example adapter can do beyond the required operations. Only what the Example
 * API really supports is declared: `PATCH` makes correction possible and search and list
 * filter on metadata; there is no extraction, profile, explain or browse endpoint.
 */
export const exampleCapabilities = {
  correction: true,
  metadataFilter: true,
  profile: false,
  multimodal: false,
  providerManagedExtraction: false,
  asyncExtraction: false,
  providerNativeBrowse: false,
  listExtractionJobs: false,
  retryExtractionJob: false,
  explain: false,
} as const satisfies MemoryAdapterCapabilities;
