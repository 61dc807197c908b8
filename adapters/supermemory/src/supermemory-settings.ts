import {
  cursorSecretSchema,
  retryPolicyOverridesSchema,
  MemoryConfigurationError,
  parseInput,
  type MemoryAttributionMode,
  type MemoryBillingType,
  type RetryPolicy,
} from '@memplane/core';
import type Supermemory from 'supermemory';
import { z } from 'zod';

/** Settings of {@link createSupermemoryAdapter}. */
export interface SupermemoryAdapterSettings {
  /**
   * The Supermemory API key, sent as `Authorization: Bearer <key>` by the SDK.
   * Default: the `SUPERMEMORY_API_KEY` environment variable. Without either (and without
   * `client`), creating the adapter throws `MemoryConfigurationError`.
   */
  apiKey?: string;
  /**
   * The base URL of the Supermemory API.
   * Default: the `SUPERMEMORY_BASE_URL` environment variable, else `https://api.supermemory.ai`.
   */
  baseURL?: string;
  /**
   * Extra HTTP headers sent with every request (a proxy's routing or tracing headers).
   * `Authorization` is refused: the API key is the one way to authenticate. Default none.
   * The same setting as the mem0 adapter's `headers`.
   */
  headers?: Record<string, string>;
  /**
   * An SDK client to use instead of building one. The adapter still sends `maxRetries: 0`
   * and its own timeout and abort signal on every request, so the client's retry and
   * timeout settings never apply.
   */
  client?: Supermemory;
  /**
   * The prefix of every container tag the adapter derives from a `companyId`
   * (`<prefix>_<hash>`). Use one prefix per deployment sharing a Supermemory organisation.
   * 1 to 40 characters of `[A-Za-z0-9-]`. Default `mp`.
   */
  containerTagPrefix?: string;
  /** The timeout of each attempt of each API call, in milliseconds. Default 30000. */
  timeoutMs?: number;
  /**
   * Overrides of the retry policy (core `callWithRetry`: 2 retries, exponential backoff from
   * 500 ms with full jitter, Retry-After honoured up to 30 s). The SDK's own retries are
   * always off (`maxRetries: 0`), so this policy is the only one.
   */
  retry?: Partial<RetryPolicy>;
  /**
   * The fetch the SDK uses. Default: a function that looks up `globalThis.fetch` at call
   * time, because the SDK captures `fetch` when it is constructed and would otherwise skip
   * interceptors (msw) installed after the adapter was created.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * The HMAC secret that signs list and job cursors. Use the same secret in every process
   * serving the same binding so cursors survive restarts. Default: a random secret per adapter.
   */
  cursorSecret?: string | Uint8Array;
  /**
   * The `threshold` sent with every search (0 returns the most results, 1 the fewest).
   * Default: 0, so `query` returns the best `topK` matches however weak; Supermemory's own
   * default when none is sent (0.5) would drop relevant matches. Raise it to leave weak matches out.
   */
  searchThreshold?: number;
  /**
   * How long after a capture a `404` on its document still counts as `queued`, in
   * milliseconds. Supermemory can answer 404 right after `add` (supermemoryai/supermemory#508).
   * Default 120000.
   */
  extractionNotFoundGraceMs?: number;
  /** The `billingType` put on every usage entry. Default `metered_api`. */
  billingType?: MemoryBillingType;
  /** The `attributionMode` put on every usage entry. Default `untracked`. */
  attributionMode?: MemoryAttributionMode;
}

/** The settings after defaults were applied. */
export interface ResolvedSupermemorySettings {
  apiKey: string | undefined;
  baseURL: string;
  headers: Record<string, string>;
  client: Supermemory | undefined;
  containerTagPrefix: string;
  timeoutMs: number;
  retry: Partial<RetryPolicy>;
  fetch: typeof globalThis.fetch;
  cursorSecret: string | Uint8Array | undefined;
  searchThreshold: number | undefined;
  extractionNotFoundGraceMs: number;
  billingType: MemoryBillingType;
  attributionMode: MemoryAttributionMode;
}

/** The default base URL of the Supermemory API. */
export const defaultSupermemoryBaseURL = 'https://api.supermemory.ai';

const nonNegativeInteger = z.number().int().nonnegative();

/** An HTTP header name (RFC 9110 token). */
const headerNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Extra request headers: valid names and values, never `Authorization`. */
const extraHeadersSchema = z.record(
  z
    .string()
    .regex(headerNamePattern, 'must be an HTTP header name')
    .refine((name) => name.toLowerCase() !== 'authorization', 'is set from apiKey; it cannot be overridden'),
  z.string().regex(/^[^\r\n\0]*$/, 'must not contain line breaks'),
);

/**
 * The schema of {@link SupermemoryAdapterSettings}: what `createSupermemoryAdapter` validates,
 * and what the provider description (`@memplane/supermemory/provider`) derives the binding
 * config from.
 */
export const supermemoryAdapterSettingsSchema = z.strictObject({
  apiKey: z.string().trim().min(1, 'must not be empty').optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  headers: extraHeadersSchema.optional(),
  client: z
    .custom<Supermemory>(
      (value) => typeof value === 'object' && value !== null && typeof (value as { post?: unknown }).post === 'function',
      'must be a Supermemory SDK client',
    )
    .optional(),
  containerTagPrefix: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,40}$/, 'must be 1 to 40 characters of A-Z, a-z, 0-9 and -')
    .optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  retry: retryPolicyOverridesSchema.optional(),
  fetch: z.custom<typeof globalThis.fetch>((value) => typeof value === 'function', 'must be a fetch function').optional(),
  cursorSecret: cursorSecretSchema.optional(),
  searchThreshold: z.number().min(0).max(1).optional(),
  extractionNotFoundGraceMs: nonNegativeInteger.optional(),
  billingType: z.enum(['metered_api', 'subscription_included', 'subscription_overage', 'unknown']).optional(),
  attributionMode: z.enum(['billed_directly', 'included_in_run', 'external_invoice', 'untracked']).optional(),
});

// Looked up on every call, so interceptors installed after the adapter was built still apply.
const lateBoundFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);

/**
 * Validates the settings and applies the defaults. Throws `MemoryValidationError` naming the
 * bad setting, or `MemoryConfigurationError` when there is neither a client nor an API key.
 */
export function resolveSupermemorySettings(
  settings: SupermemoryAdapterSettings = {},
  environment: Record<string, string | undefined> = process.env,
): ResolvedSupermemorySettings {
  const valid = parseInput(supermemoryAdapterSettingsSchema, settings, 'Supermemory adapter settings', 'settings');
  const apiKey = valid.apiKey ?? environment.SUPERMEMORY_API_KEY;
  if (valid.client === undefined && (apiKey === undefined || apiKey.trim() === '')) {
    throw new MemoryConfigurationError({
      message: 'The Supermemory adapter needs an API key: pass settings.apiKey or set SUPERMEMORY_API_KEY.',
    });
  }
  const environmentBaseURL = environment.SUPERMEMORY_BASE_URL?.trim();
  return {
    apiKey,
    baseURL: (valid.baseURL ?? (environmentBaseURL || defaultSupermemoryBaseURL)).replace(/\/+$/, ''),
    headers: valid.headers ?? {},
    client: settings.client,
    containerTagPrefix: valid.containerTagPrefix ?? 'mp',
    timeoutMs: valid.timeoutMs ?? 30_000,
    retry: valid.retry ?? {},
    fetch: settings.fetch ?? lateBoundFetch,
    cursorSecret: valid.cursorSecret,
    searchThreshold: valid.searchThreshold,
    extractionNotFoundGraceMs: valid.extractionNotFoundGraceMs ?? 120_000,
    billingType: valid.billingType ?? 'metered_api',
    attributionMode: valid.attributionMode ?? 'untracked',
  };
}
