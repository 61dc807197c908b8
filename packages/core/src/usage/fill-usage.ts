import type { MemoryUsage } from '../memory-adapter/v1/memory-adapter-v1-usage';

/**
 * Makes sure an operation reports usage: every entry gets the measured latency when the
 * adapter did not measure it, and an operation with no entry gets one with just the
 * provider key and the latency. No counter is ever invented.
 */
export function fillUsage(provider: string, usage: MemoryUsage[] | undefined, latencyMs: number): MemoryUsage[] {
  if (usage === undefined || usage.length === 0) return [{ provider, latencyMs }];
  return usage.map((entry) => (entry.latencyMs === undefined ? { ...entry, latencyMs } : entry));
}
