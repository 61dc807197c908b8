/**
 * Stands in, for the documentation's samples, for the adapter an author writes: the reference
 * adapter over the backend of the fake at `baseURL`.
 */
import type { MemoryAdapter, RetryPolicy } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import { backendAt, faults } from './acme-memory-fake-server.js';

/** Settings of the sample adapter, shaped as a hosted adapter's are: every one optional. */
export interface AcmeMemoryAdapterSettings {
  /** The API key; the fake accepts any. */
  apiKey?: string;
  /** Where the provider's API is. */
  baseURL?: string;
  /** Overrides of the core retry policy; the fake never asks for a retry. */
  retry?: Partial<RetryPolicy>;
  /** The per-call timeout in milliseconds. */
  timeoutMs?: number;
  /** The secret that signs list cursors; peers over one backend share it. */
  cursorSecret?: string | Uint8Array;
}

/** The sample adapter. */
export function createAcmeMemoryAdapter(settings: AcmeMemoryAdapterSettings): MemoryAdapter {
  return createMemoryAdapter({ store: backendAt(settings.baseURL ?? 'https://api.acme-memory.com'), faults, timeoutMs: settings.timeoutMs ?? 50 });
}
