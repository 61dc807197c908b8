import { callWithRetry, measureLatency, parseProviderResult, type MemoryUsage } from '@memplane/core';
import type { z } from 'zod';
import { convertSupermemoryUsage } from './convert-supermemory-usage';
import { toMemoryError } from './supermemory-error';
import type { ResolvedSupermemorySettings } from './supermemory-settings';

/**
 * The per-request options every SDK call gets: the adapter's timeout, which the SDK enforces by
 * aborting the request (so no request outlives its attempt), and no SDK retries. The attempt's
 * `AbortSignal` is not passed on: handing fetch a second signal cost about 1.5 ms per call
 * under msw while the SDK's own timeout already aborts the request.
 */
export interface SupermemoryRequestOptions {
  timeout: number;
  maxRetries: 0;
  /** The settings' extra headers, when there are any (they reach a client passed in the settings too). */
  headers?: Record<string, string>;
}

/** What one call is about. */
export interface SupermemoryCallContext {
  /** The adapter operation, such as `query`. */
  operation: string;
  /** The provider id the call is about; a 404 then reads as not found. */
  resourceId?: string;
}

/**
 * How much longer than the SDK's timeout an attempt may take before core `callWithRetry` gives
 * up on it. The SDK's timeout covers the request up to the response headers and normally fires
 * first; this backstop also bounds reading the body.
 */
const backstopMs = 100;

/** A validated response with the usage of the call. */
export interface SupermemoryCallResult<Value> {
  value: Value;
  usage: MemoryUsage;
}

/** Makes one SDK call with timeout, retry, error mapping, response validation and usage. */
export type SupermemoryCall = <Schema extends z.ZodType>(
  context: SupermemoryCallContext,
  schema: Schema,
  send: (options: SupermemoryRequestOptions) => PromiseLike<unknown>,
  serverTiming?: (value: z.output<Schema>) => number | null | undefined,
) => Promise<SupermemoryCallResult<z.output<Schema>>>;

/**
 * Creates the one path every SDK call takes. Each attempt runs under core `callWithRetry`
 * with the configured timeout and policy; the SDK gets `maxRetries: 0` so it never retries on
 * its own (one bounded policy, and no msw 2.x hang on cancelled retry bodies). SDK errors
 * become core errors before the retry decision, so 429 and 5xx are retried and 4xx are not,
 * and a malformed body becomes `MemoryInvalidResponseError`.
 */
export function createSupermemoryCall(
  settings: Pick<ResolvedSupermemorySettings, 'retry' | 'timeoutMs' | 'billingType' | 'attributionMode'> & Partial<Pick<ResolvedSupermemorySettings, 'headers'>>,
): SupermemoryCall {
  return async (context, schema, send, serverTiming) => {
    const errorContext = { ...context, timeoutMs: settings.timeoutMs };
    const requestOptions: SupermemoryRequestOptions = { timeout: settings.timeoutMs, maxRetries: 0 };
    if (settings.headers !== undefined && Object.keys(settings.headers).length > 0) requestOptions.headers = settings.headers;
    const { value, latencyMs } = await measureLatency(() =>
      callWithRetry(
        async () => {
          let body: unknown;
          try {
            body = await send(requestOptions);
          } catch (error) {
            throw toMemoryError(error, errorContext);
          }
          return parseProviderResult(schema, body, `Supermemory ${context.operation} response`);
        },
        { operation: `Supermemory ${context.operation}`, retry: settings.retry, timeoutMs: settings.timeoutMs + backstopMs },
      ),
    );
    return {
      value,
      usage: convertSupermemoryUsage({
        latencyMs,
        serverTimingMs: serverTiming?.(value),
        billingType: settings.billingType,
        attributionMode: settings.attributionMode,
      }),
    };
  };
}
