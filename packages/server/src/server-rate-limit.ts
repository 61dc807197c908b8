/** Per-token request rate settings. */
export interface ServerRateLimitSettings {
  /** Requests per minute a token may make on average. Default 600. A token's own grant overrides it. */
  requestsPerMinute?: number;
  /** How many requests a token may make at once. Default: a tenth of a minute's worth, at least 10 but never more than a minute's worth. */
  burst?: number;
}

/** What the limiter decided for one request. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A token-bucket limiter keyed by token id. */
export interface TokenRateLimiter {
  /** Takes one request from the token's bucket. */
  take(tokenId: string, requestsPerMinute?: number): RateDecision;
}

/**
 * One bucket per token, refilled continuously at `requestsPerMinute / 60` a second up to
 * `burst`. A token bucket lets a client that was quiet make a short burst, keeps the average
 * at the rate, and needs two numbers per token; idle full buckets are forgotten, so the map
 * holds only tokens seen lately. The clock is injectable so tests never sleep.
 */
export function createTokenRateLimiter(settings: ServerRateLimitSettings = {}, now: () => number = Date.now): TokenRateLimiter {
  const defaultRate = settings.requestsPerMinute ?? 600;
  const burstOf = (rate: number) => settings.burst ?? Math.min(rate, Math.max(10, Math.ceil(rate / 10)));
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = now();
  return {
    take(tokenId, requestsPerMinute) {
      const rate = requestsPerMinute ?? defaultRate;
      const capacity = burstOf(rate);
      const perMs = rate / 60_000;
      const time = now();
      if (time - lastSweep > 60_000) {
        // Buckets that have refilled are the same as no bucket.
        for (const [key, bucket] of buckets) if (bucket.tokens + (time - bucket.at) * perMs >= capacity) buckets.delete(key);
        lastSweep = time;
      }
      const bucket = buckets.get(tokenId) ?? { tokens: capacity, at: time };
      bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, time - bucket.at) * perMs);
      bucket.at = time;
      buckets.set(tokenId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    },
  };
}
