import {
  cursorSecretSchema,
  MemoryConfigurationError,
  parseInput,
  retryPolicyOverridesSchema,
  type RetryPolicy,
} from '@memplane/core';
import { z } from 'zod';

/** Settings of {@link createExampleAdapter}. */
export interface ExampleAdapterSettings {
  /**
   * The Example API key, sent in the `x-api-key` header.
   * Default: the `EXAMPLE_API_KEY` environment variable. Without either, creating the
   * adapter throws `MemoryConfigurationError`.
   */
  apiKey?: string;
  /** The base URL of the Example API. Default `https://api.example.com`. */
  baseURL?: string;
  /** The timeout of each attempt of each call, in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** Overrides of the core retry policy (2 retries, exponential backoff with jitter, Retry-After honoured). */
  retry?: Partial<RetryPolicy>;
  /** The fetch implementation. Default the global `fetch`. Tests and proxies pass their own. */
  fetch?: typeof globalThis.fetch;
  /**
   * The HMAC secret that signs list cursors. Use the same secret in every process that
   * serves the same binding so cursors survive restarts. Default: a random secret per adapter.
   */
  cursorSecret?: string | Uint8Array;
}

/** The settings after defaults were applied and the API key was found. */
export interface ResolvedExampleSettings {
  /** The API key. */
  apiKey: string;
  /** The base URL, without a trailing slash. */
  baseURL: string;
  /** The timeout of each attempt, in milliseconds. */
  timeoutMs: number;
  /** Overrides of the core retry policy. */
  retry: Partial<RetryPolicy>;
  /** The fetch implementation. */
  fetch: typeof globalThis.fetch;
  /** The cursor secret, when one was given. */
  cursorSecret: string | Uint8Array | undefined;
}

/** The default base URL of the Example API. */
export const defaultExampleBaseURL = 'https://api.example.com';

/**
 * The schema of {@link ExampleAdapterSettings}: what `createExampleAdapter` validates, and what
 * the provider description (`src/provider.ts`) derives the binding config from, so a setting
 * added here is settable through a binding too.
 */
export const exampleAdapterSettingsSchema = z.strictObject({
  apiKey: z.string().min(1, 'must not be empty').optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  retry: retryPolicyOverridesSchema.optional(),
  fetch: z
    .custom<typeof globalThis.fetch>((value) => typeof value === 'function', 'must be a fetch function')
    .optional(),
  cursorSecret: cursorSecretSchema.optional(),
});

/**
 * Validates the settings and applies the defaults. Throws `MemoryValidationError` naming
 * the bad setting, or `MemoryConfigurationError` when no API key is set anywhere.
 */
export function resolveExampleSettings(
  settings: ExampleAdapterSettings = {},
  environment: Record<string, string | undefined> = process.env,
): ResolvedExampleSettings {
  const valid = parseInput(exampleAdapterSettingsSchema, settings, 'Example adapter settings', 'settings');
  const apiKey = valid.apiKey ?? environment.EXAMPLE_API_KEY;
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new MemoryConfigurationError({
      message: 'The Example adapter needs an API key: pass settings.apiKey or set EXAMPLE_API_KEY.',
    });
  }
  return {
    apiKey,
    baseURL: (valid.baseURL ?? defaultExampleBaseURL).replace(/\/+$/, ''),
    timeoutMs: valid.timeoutMs ?? 30_000,
    retry: valid.retry ?? {},
    fetch: valid.fetch ?? globalThis.fetch,
    cursorSecret: valid.cursorSecret,
  };
}
