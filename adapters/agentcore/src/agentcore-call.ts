import { callWithRetry, parseProviderResult, type MemoryUsage } from '@memplane/core';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { toMemoryError, type AgentCoreErrorContext } from './agentcore-error';
import type { ResolvedAgentCoreSettings } from './agentcore-settings';
import { toAgentCoreUsage, type AgentCoreResponseMetadata } from './agentcore-usage';

/** A validated AgentCore response with the usage of the call. */
export interface AgentCoreCallResult<Value> {
  /** The response, validated. */
  value: Value;
  /** The usage of the call, with its measured latency. */
  usage: MemoryUsage;
}

/** Makes one AgentCore call with timeout, retry, error mapping, response validation and usage. */
export type AgentCoreCall = <Schema extends z.ZodType>(
  context: AgentCoreErrorContext,
  schema: Schema,
  send: (abortSignal: AbortSignal) => Promise<unknown>,
) => Promise<AgentCoreCallResult<z.output<Schema>>>;

/**
 * Creates the one path every AgentCore call takes: each attempt runs under core
 * `callWithRetry` with the configured timeout (its signal aborts the SDK request) and retry
 * policy; SDK errors become core errors before the retry decision, so throttling and 5xx are
 * retried and 4xx are not; and a malformed body becomes `MemoryInvalidResponseError`, which
 * is not retried.
 */
export function createAgentCoreCall(settings: Pick<ResolvedAgentCoreSettings, 'retry' | 'timeoutMs'>): AgentCoreCall {
  return async (context, schema, send) => {
    let metadata: AgentCoreResponseMetadata | undefined;
    const started = performance.now();
    const value = await callWithRetry(
      async (abortSignal) => {
        let output: unknown;
        try {
          output = await send(abortSignal);
        } catch (error) {
          throw toMemoryError(error, context);
        }
        metadata = (output as { $metadata?: AgentCoreResponseMetadata } | undefined)?.$metadata;
        return parseProviderResult(schema, output, `AgentCore ${context.operation} response`);
      },
      { operation: `AgentCore ${context.operation}`, retry: settings.retry, timeoutMs: settings.timeoutMs },
    );
    return { value, usage: toAgentCoreUsage(context.operation, metadata, performance.now() - started) };
  };
}
