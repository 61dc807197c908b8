import type { MemoryAttributionMode, MemoryBillingType, MemoryUsage } from '@memplane/core';
import { supermemoryProviderKey } from './supermemory-handle';

/** What the adapter knows about one call's usage. */
export interface SupermemoryUsageInput {
  /** The wall-clock time of the call, measured by the adapter (retries included). */
  latencyMs: number;
  /** The server-side `timing` (ms) Supermemory reports on search and profile, when it did. */
  serverTimingMs?: number | null | undefined;
  /** The billing settings. */
  billingType: MemoryBillingType;
  attributionMode: MemoryAttributionMode;
}

/**
 * One usage entry per API call. Supermemory reports no tokens or cost per call, so every
 * counter stays undefined; its `timing` goes to `details.serverTimingMs` with the payload in `raw`.
 */
export function convertSupermemoryUsage(input: SupermemoryUsageInput): MemoryUsage {
  const usage: MemoryUsage = {
    provider: supermemoryProviderKey,
    billingType: input.billingType,
    attributionMode: input.attributionMode,
    latencyMs: input.latencyMs,
  };
  if (typeof input.serverTimingMs === 'number') {
    usage.details = { serverTimingMs: input.serverTimingMs };
    usage.raw = { timing: input.serverTimingMs };
  }
  return usage;
}
