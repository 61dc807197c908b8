/** Stands in, for the documentation's samples, for the capability manifest of a scaffolded adapter. */
import type { MemoryAdapterCapabilities } from '@memplane/core';

export const acmeMemoryCapabilities = {
  correction: true,
  metadataFilter: true,
} as const satisfies MemoryAdapterCapabilities;
