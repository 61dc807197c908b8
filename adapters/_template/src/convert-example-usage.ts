import type { MemoryUsage } from '@memplane/core';
import type { ExampleUsage } from './example-api-schemas';
import { exampleProviderKey } from './example-handle';

/**
 * Maps the API's `usage` block to one core usage entry. `latencyMs` is the adapter's own
 * wall-clock measurement; the server's `latency_ms` goes to `details.serverLatencyMs`.
 * Counters the API did not report stay undefined, and a reported block is kept in `raw`.
 */
export function convertExampleUsage(usage: ExampleUsage | undefined, latencyMs: number): MemoryUsage {
  const converted: MemoryUsage = { provider: exampleProviderKey, billingType: 'metered_api', latencyMs };
  if (usage === undefined) return converted;
  converted.details = { serverLatencyMs: usage.latency_ms };
  if (usage.embedding_tokens !== undefined) converted.embeddingTokens = usage.embedding_tokens;
  if (usage.embedding_model !== undefined) converted.model = usage.embedding_model;
  converted.raw = usage;
  return converted;
}
