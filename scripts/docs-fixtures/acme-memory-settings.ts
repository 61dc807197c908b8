/** Stands in, for the documentation's samples, for the settings module of a scaffolded adapter. */
import { retryPolicyOverridesSchema } from '@memplane/core';
import { z } from 'zod';

export type { AcmeMemoryAdapterSettings } from './acme-memory-adapter.js';

/** The default base URL of the sample provider's API. */
export const defaultAcmeMemoryBaseURL = 'https://api.acme-memory.com';

/** The sample adapter's settings schema, shaped as the scaffold's is. */
export const acmeMemoryAdapterSettingsSchema = z.strictObject({
  apiKey: z.string().min(1).optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  retry: retryPolicyOverridesSchema.optional(),
  fetch: z.custom<typeof globalThis.fetch>((value) => typeof value === 'function').optional(),
  cursorSecret: z.string().min(16).optional(),
});
