import {
  cursorSecretSchema,
  retryPolicyOverridesSchema,
  MemoryConfigurationError,
  parseInput,
  type MemoryAttributionMode,
  type MemoryBillingType,
  type RetryPolicy,
} from '@memplane/core';
import { z } from 'zod';

/** Settings of {@link createMem0Adapter}. Every setting is optional except where the environment supplies it. */
export interface Mem0AdapterSettings {
  /**
   * The mem0 platform API key, sent by the SDK as `Authorization: Token <key>`.
   * Default: the `MEM0_API_KEY` environment variable. Without either, creating the adapter
   * throws `MemoryConfigurationError`.
   */
  apiKey?: string;
  /**
   * The base URL of the mem0 platform API (the SDK's `host`), for another deployment or a
   * proxy. Default `https://api.mem0.ai`. The same setting as the Supermemory adapter's
   * `baseURL`.
   */
  baseURL?: string;
  /**
   * Extra HTTP headers sent with every request (a proxy's routing or tracing headers).
   * `Authorization` is refused: the API key is the one way to authenticate. Default none.
   */
  headers?: Record<string, string>;
  /**
   * The fetch every request goes through. Default: `globalThis.fetch`, looked up at call
   * time, so interceptors installed after the adapter was created apply.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * The timeout of each attempt of each call, in milliseconds. The SDK has none of its own;
   * when it fires, the request is aborted and the call fails with `MemoryTimeoutError`.
   * Default 30000.
   */
  timeoutMs?: number;
  /**
   * Overrides of the core retry policy (2 retries, exponential backoff from 500 ms with full
   * jitter, Retry-After honoured up to 30 s). The SDK does not retry at all. `add` is only
   * retried after HTTP 429, because mem0 has no idempotency key and a retried add can store
   * a memory twice.
   */
  retry?: Partial<RetryPolicy>;
  /**
   * The HMAC secret that signs list and job cursors. Give every process serving the same
   * binding the same secret so cursors survive restarts. Default: a random secret per adapter.
   */
  cursorSecret?: string | Uint8Array;
  /**
   * The role of the message a `capture_residue` capture sends. On mem0's extraction path a
   * fact extracted from a `user` message carries `user_id` and one from an `assistant`
   * message carries `agent_id`, never both. Isolation does not depend on it. Default `user`.
   */
  captureRole?: 'user' | 'assistant';
  /** The minimum relevance score of query results (mem0 `threshold`, 0 to 1). Default: mem0's own (0.1). */
  searchThreshold?: number;
  /** How mem0 bills the calls, reported on every usage entry. Default `subscription_included` (mem0 plans include a monthly quota). */
  billingType?: MemoryBillingType;
  /** How the platform should attribute the cost, reported on every usage entry. Default `external_invoice` (mem0 invoices the plan). */
  attributionMode?: MemoryAttributionMode;
}

/** The settings after defaults were applied and the API key was found. */
export interface ResolvedMem0Settings {
  /** The API key. */
  apiKey: string;
  /** The base URL, without a trailing slash. */
  baseURL: string;
  /** Extra headers of every request. */
  headers: Record<string, string>;
  /** The fetch of every request. */
  fetch: typeof globalThis.fetch;
  /** The timeout of each attempt, in milliseconds. */
  timeoutMs: number;
  /** Overrides of the core retry policy. */
  retry: Partial<RetryPolicy>;
  /** The cursor secret, when one was given. */
  cursorSecret: string | Uint8Array | undefined;
  /** The role of captured residue. */
  captureRole: 'user' | 'assistant';
  /** The search threshold, when one was given. */
  searchThreshold: number | undefined;
  /** Reported on usage entries. */
  billingType: MemoryBillingType;
  /** Reported on usage entries. */
  attributionMode: MemoryAttributionMode;
}

/** The default base URL of the mem0 platform API. */
export const defaultMem0BaseURL = 'https://api.mem0.ai';

/** An HTTP header name (RFC 9110 token). */
const headerNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Extra request headers: valid names and values, never `Authorization`. */
export const extraHeadersSchema = z.record(
  z
    .string()
    .regex(headerNamePattern, 'must be an HTTP header name')
    .refine((name) => name.toLowerCase() !== 'authorization', 'is set from apiKey; it cannot be overridden'),
  z.string().regex(/^[^\r\n\0]*$/, 'must not contain line breaks'),
);

// Looked up on every call, so interceptors installed after the adapter was built still apply.
const lateBoundFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);

/**
 * The schema of {@link Mem0AdapterSettings}: what `createMem0Adapter` validates, and what the
 * provider description (`@memplane/mem0/provider`) derives the binding config from.
 */
export const mem0AdapterSettingsSchema = z.strictObject({
  apiKey: z.string().trim().min(1, 'must not be empty').optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  headers: extraHeadersSchema.optional(),
  fetch: z.custom<typeof globalThis.fetch>((value) => typeof value === 'function', 'must be a fetch function').optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  retry: retryPolicyOverridesSchema.optional(),
  cursorSecret: cursorSecretSchema.optional(),
  captureRole: z.enum(['user', 'assistant']).optional(),
  searchThreshold: z.number().min(0).max(1).optional(),
  billingType: z.enum(['metered_api', 'subscription_included', 'subscription_overage', 'unknown']).optional(),
  attributionMode: z.enum(['billed_directly', 'included_in_run', 'external_invoice', 'untracked']).optional(),
});

/**
 * Validates the settings and applies the defaults. Throws `MemoryValidationError` naming the
 * bad setting (such as `settings.timeoutMs`), or `MemoryConfigurationError` when no API key
 * is set anywhere.
 */
export function resolveMem0Settings(
  settings: Mem0AdapterSettings = {},
  environment: Record<string, string | undefined> = process.env,
): ResolvedMem0Settings {
  const valid = parseInput(mem0AdapterSettingsSchema, settings, 'mem0 adapter settings', 'settings');
  const apiKey = valid.apiKey ?? environment.MEM0_API_KEY?.trim();
  if (apiKey === undefined || apiKey === '') {
    throw new MemoryConfigurationError({
      message: 'The mem0 adapter needs an API key: pass settings.apiKey or set MEM0_API_KEY.',
    });
  }
  return {
    apiKey,
    baseURL: (valid.baseURL ?? defaultMem0BaseURL).replace(/\/+$/, ''),
    headers: valid.headers ?? {},
    fetch: settings.fetch ?? lateBoundFetch,
    timeoutMs: valid.timeoutMs ?? 30_000,
    retry: valid.retry ?? {},
    cursorSecret: valid.cursorSecret,
    captureRole: valid.captureRole ?? 'user',
    searchThreshold: valid.searchThreshold,
    billingType: valid.billingType ?? 'subscription_included',
    attributionMode: valid.attributionMode ?? 'external_invoice',
  };
}
