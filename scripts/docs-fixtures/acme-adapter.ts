/** Stands in, for the documentation's samples, for the adapter an author writes. */
import type { MemoryAdapter } from '@memplane/core';
import { createAcmeMemoryAdapter } from './acme-memory-adapter.js';

/** Settings of the sample adapter. */
export interface AcmeAdapterSettings {
  /** Where the provider's API is. */
  baseUrl: string;
  /** The API key; the fake accepts any. */
  apiKey: string;
  /** The per-call timeout in milliseconds. */
  timeoutMs?: number;
  /** The retry policy. */
  retry?: { maxRetries?: number };
}

/** The sample adapter. */
export function createAcmeAdapter(settings: AcmeAdapterSettings): MemoryAdapter {
  return createAcmeMemoryAdapter({ ...settings, baseURL: settings.baseUrl });
}
