import {
  callWithRetry,
  createApiCallError,
  MemoryApiCallError,
  MemoryError,
  MemoryInvalidResponseError,
  parseProviderResult,
  type RetryPolicy,
} from '@memplane/core';
import type { z } from 'zod';

/** Connection settings shared by the OpenAI-compatible clients. */
export interface OpenAICompatibleConnection {
  /** The API base URL, such as `https://api.openai.com/v1` or `http://localhost:11434/v1` (Ollama). */
  baseURL: string;
  /** The API key, sent as `Authorization: Bearer`. Local servers usually need none. */
  apiKey?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** The timeout of each attempt, in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** Overrides of core's retry policy (2 retries, exponential backoff with jitter, honouring Retry-After). */
  retry?: Partial<RetryPolicy>;
  /** The fetch implementation. Default: the global fetch. */
  fetch?: typeof fetch;
}

/** POSTs JSON to an OpenAI-compatible endpoint, with timeout and retries, and validates the answer. */
export async function postOpenAICompatible<Schema extends z.ZodType>(
  connection: OpenAICompatibleConnection,
  path: string,
  body: unknown,
  schema: Schema,
  operation: string,
  signal?: AbortSignal,
): Promise<z.output<Schema>> {
  const url = `${connection.baseURL.replace(/\/+$/, '')}${path}`;
  const fetchImplementation = connection.fetch ?? globalThis.fetch;
  return callWithRetry(
    async (attemptSignal) => {
      let response: Response;
      try {
        response = await fetchImplementation(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(connection.apiKey === undefined ? {} : { authorization: `Bearer ${connection.apiKey}` }),
            ...connection.headers,
          },
          body: JSON.stringify(body),
          signal: attemptSignal,
        });
      } catch (cause) {
        if (MemoryError.isInstance(cause)) throw cause;
        if (attemptSignal.aborted && MemoryError.isInstance(attemptSignal.reason)) throw attemptSignal.reason;
        throw new MemoryApiCallError({ message: `${operation} could not reach ${url}.`, url, cause, isRetryable: true });
      }
      const text = await response.text();
      if (!response.ok) throw createApiCallError({ status: response.status, headers: response.headers, body: text.slice(0, 2000), url });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new MemoryInvalidResponseError({ message: `${operation} answered with a body that is not JSON.`, cause });
      }
      return parseProviderResult(schema, json, `${operation} response`);
    },
    {
      operation,
      timeoutMs: connection.timeoutMs ?? 30_000,
      ...(connection.retry === undefined ? {} : { retry: connection.retry }),
      ...(signal === undefined ? {} : { signal }),
    },
  );
}
