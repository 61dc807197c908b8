import { callWithRetry, measureLatency, parseProviderResult, type MemoryUsage } from '@memplane/core';
import type { z } from 'zod';
import { convertExampleUsage } from './convert-example-usage';
import type { ExampleUsage } from './example-api-schemas';
import { toMemoryError, type ExampleErrorContext } from './example-error';
import type { ResolvedExampleSettings } from './example-settings';

/** A validated API response with the usage of the call. */
export interface ExampleCallResult<Value> {
  /** The response body, validated. */
  value: Value;
  /** The usage of the call, with its measured latency. */
  usage: MemoryUsage;
}

/** Makes one API call with timeout, retry, error mapping, response validation and usage. */
export type ExampleCall = <Schema extends z.ZodType<{ usage?: ExampleUsage | undefined }>>(
  context: ExampleErrorContext,
  schema: Schema,
  send: (signal: AbortSignal) => Promise<unknown>,
) => Promise<ExampleCallResult<z.output<Schema>>>;

/**
 * Creates the one path every API call takes: each attempt runs under core `callWithRetry`
 * with the configured timeout and retry policy, SDK errors become core errors before the
 * retry decision (so 429 and 5xx are retried and 4xx are not), and a malformed body
 * becomes `MemoryInvalidResponseError`.
 */
export function createExampleCall(settings: Pick<ResolvedExampleSettings, 'retry' | 'timeoutMs'>): ExampleCall {
  return async (context, schema, send) => {
    const { value, latencyMs } = await measureLatency(() =>
      callWithRetry(
        async (signal) => {
          let body: unknown;
          try {
            body = await send(signal);
          } catch (error) {
            throw toMemoryError(error, context);
          }
          return parseProviderResult(schema, body, `Example API ${context.operation} response`);
        },
        { operation: `Example ${context.operation}`, retry: settings.retry, timeoutMs: settings.timeoutMs },
      ),
    );
    return { value, usage: convertExampleUsage(value.usage, latencyMs) };
  };
}
