import { performance } from 'node:perf_hooks';
import {
  callWithRetry,
  MemoryRateLimitedError,
  parseProviderResult,
  type MemoryUsage,
} from '@memplane/core';
import type { MemoryClient } from 'mem0ai';
import type { z } from 'zod';
import { sendWithSignal } from './mem0-client';
import { toMemoryError, type Mem0ErrorContext } from './mem0-error';
import { mem0ProviderKey } from './mem0-handle';
import type { ResolvedMem0Settings } from './mem0-settings';

/** What one call is about. */
export interface Mem0CallContext extends Mem0ErrorContext {
  /**
   * Whether the call may be repeated after a failure whose outcome is unknown (5xx, a
   * timeout, a dropped connection). False for `add`: mem0 has no idempotency key, so only
   * a 429, which refused the request, is retried. Default true.
   */
  repeatable?: boolean;
}

/** A validated response with the usage of the call. */
export interface Mem0CallResult<Value> {
  /** The SDK's answer, validated. */
  value: Value;
  /** The usage of the call, with its measured latency and attempts. */
  usage: MemoryUsage;
}

/** Makes one SDK call with timeout, retry, abort, error mapping, response validation and usage. */
export type Mem0Call = <Schema extends z.ZodType>(
  context: Mem0CallContext,
  schema: Schema,
  send: (client: MemoryClient) => Promise<unknown>,
) => Promise<Mem0CallResult<z.output<Schema>>>;

/** Stops the outer retry loop; never leaves this module. */
class FinalFailure {
  constructor(readonly error: unknown) {}
}

/**
 * Runs a call that must not be repeated after an unknown outcome: each attempt has its own
 * timeout, and the outer retry loop only repeats attempts that mem0 refused with a 429.
 */
async function withoutUnsafeRetries<Value>(
  attempt: (signal: AbortSignal) => Promise<Value>,
  operation: string,
  settings: Pick<ResolvedMem0Settings, 'retry' | 'timeoutMs'>,
): Promise<Value> {
  try {
    return await callWithRetry(
      async () => {
        try {
          return await callWithRetry(attempt, { operation, timeoutMs: settings.timeoutMs, retry: { maxRetries: 0 } });
        } catch (error) {
          if (MemoryRateLimitedError.isInstance(error)) throw error;
          throw new FinalFailure(error);
        }
      },
      // Each inner attempt has its own timeout; the outer one only guards against a stuck loop.
      { operation, retry: settings.retry, timeoutMs: settings.timeoutMs * 2 + 1000 },
    );
  } catch (error) {
    throw error instanceof FinalFailure ? error.error : error;
  }
}

/**
 * Creates the one path every SDK call takes. Each attempt runs under its own timeout with
 * its own abort signal, which reaches the SDK's fetch; the outer loop is core
 * `callWithRetry` with the configured policy (exponential backoff with jitter, Retry-After
 * honoured). SDK errors become core errors before the retry decision, and a malformed
 * body becomes `MemoryInvalidResponseError`, which is never retried.
 */
export function createMem0Call(
  settings: Pick<ResolvedMem0Settings, 'retry' | 'timeoutMs' | 'billingType' | 'attributionMode'>,
  getClient: () => Promise<MemoryClient>,
): Mem0Call {
  return async (context, schema, send) => {
    const operation = `mem0 ${context.operation}`;
    let attempts = 0;
    // Loading the SDK is local work done once, so it does not count against a call's timeout.
    const client = await getClient();
    const attempt = async (signal: AbortSignal) => {
      attempts += 1;
      let body: unknown;
      try {
        body = await sendWithSignal(client, signal, send);
      } catch (error) {
        throw toMemoryError(error, context);
      }
      return parseProviderResult(schema, body, `${operation} response`);
    };
    const started = performance.now();
    const value = context.repeatable === false ? await withoutUnsafeRetries(attempt, operation, settings) : await callWithRetry(attempt, { operation, retry: settings.retry, timeoutMs: settings.timeoutMs });
    const usage: MemoryUsage = {
      provider: mem0ProviderKey,
      billingType: settings.billingType,
      attributionMode: settings.attributionMode,
      latencyMs: performance.now() - started,
      details: { call: context.operation, attempts },
    };
    return { value, usage };
  };
}
