/** How the provider bills an operation. */
export type MemoryBillingType =
  | 'metered_api'
  | 'subscription_included'
  | 'subscription_overage'
  | 'unknown';

/** How the platform attributes the cost of an operation. */
export type MemoryAttributionMode =
  | 'billed_directly'
  | 'included_in_run'
  | 'external_invoice'
  | 'untracked';

/**
 * Usage reported for one provider call.
 *
 * Every counter is `number | undefined`: a counter the provider did not report stays
 * undefined and is never invented as 0. A counter that is set comes with the provider's
 * own payload in `raw`, so it can be traced back.
 */
export interface MemoryUsage {
  /** The provider (adapter key) that did the work. Always set. */
  provider: string;
  /** Who bills for the work, when it differs from the provider (for example the embedding vendor). */
  biller?: string;
  /** The model that did the work, when one did. */
  model?: string;
  /** How the provider bills this work. */
  billingType?: MemoryBillingType;
  /** How the platform should attribute the cost. */
  attributionMode?: MemoryAttributionMode;
  /** Input tokens reported by the provider. */
  inputTokens?: number;
  /** Cached input tokens reported by the provider. */
  cachedInputTokens?: number;
  /** Output tokens reported by the provider. */
  outputTokens?: number;
  /** Embedding tokens reported by the provider. */
  embeddingTokens?: number;
  /** Cost in US cents reported by the provider. */
  costCents?: number;
  /** Wall-clock time of the call in milliseconds, measured by the adapter. */
  latencyMs?: number;
  /** Extra provider details such as server-side timings. */
  details?: Record<string, unknown>;
  /** The provider's own usage payload, unchanged, that the counters were read from. */
  raw?: unknown;
}
