import { MemoryApiCallError, MemoryError, MemoryInvalidResponseError, MemoryTimeoutError, type JsonValue } from '@memplane/core';
import type { z } from 'zod';
import type { RunLlmUsage } from '../store/engine-store-rows';
import { describeModel, type ResolvedLlmProfile } from './llm-profiles';

/** Usage as the run log keeps it: counters undefined unless the model reported them. */
export type CallUsage = Omit<RunLlmUsage, 'stepId'>;

function toMemoryError(error: unknown, profile: ResolvedLlmProfile, operation: string): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  const named = error as { name?: unknown; statusCode?: unknown; isRetryable?: unknown; message?: unknown };
  if (named.name === 'AbortError' || named.name === 'TimeoutError') {
    return new MemoryTimeoutError({ timeoutMs: profile.timeoutMs, operation, cause: error });
  }
  if (named.name === 'AI_NoObjectGeneratedError' || named.name === 'AI_JSONParseError' || named.name === 'AI_TypeValidationError') {
    return new MemoryInvalidResponseError({ message: `${operation}: the model's answer did not match the schema.`, cause: error });
  }
  return new MemoryApiCallError({
    message: `${operation} failed: ${typeof named.message === 'string' ? named.message : 'model call failed'}`,
    ...(typeof named.statusCode === 'number' ? { statusCode: named.statusCode } : {}),
    ...(typeof named.isRetryable === 'boolean' ? { isRetryable: named.isRetryable } : {}),
    cause: error,
  });
}

function usageOf(
  profile: ResolvedLlmProfile,
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined; tokens?: number | undefined } | undefined,
  raw: unknown,
  model: Parameters<typeof describeModel>[0] = profile.model,
): CallUsage {
  return {
    profile: profile.name,
    model: describeModel(model),
    inputTokens: typeof usage?.inputTokens === 'number' ? usage.inputTokens : typeof usage?.tokens === 'number' ? usage.tokens : undefined,
    outputTokens: typeof usage?.outputTokens === 'number' ? usage.outputTokens : undefined,
    raw: raw === undefined ? undefined : (JSON.parse(JSON.stringify(raw)) as JsonValue),
  };
}

/**
 * Runs `call` with a signal that aborts after `timeoutMs` or when the step's `signal` does. The
 * timer is our own, cleared when the call ends: Node may collect an `AbortSignal.timeout` that only
 * an `AbortSignal.any` holds before it fires (nodejs/node#57736), and the call then never ends.
 */
async function withDeadline<Value>(signal: AbortSignal | undefined, timeoutMs: number, call: (signal: AbortSignal) => Promise<Value>): Promise<Value> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`The model call took longer than ${timeoutMs} ms.`, 'TimeoutError')), timeoutMs);
  const abortWithStep = () => controller.abort(signal?.reason);
  if (signal?.aborted === true) abortWithStep();
  else signal?.addEventListener('abort', abortWithStep, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abortWithStep);
  }
}

/** Extracts the first JSON object or array of a text answer (`json-text` mode). */
function parseJsonText(text: string): unknown {
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start < 0 || end < start) throw Object.assign(new Error('no JSON in the answer'), { name: 'AI_JSONParseError' });
  return JSON.parse(text.slice(start, end + 1));
}

/** A file handed to the model beside the prompt: bytes, or a URL the provider fetches itself. */
export interface ModelFile {
  readonly data: Uint8Array | URL;
  readonly mediaType: string;
}

/**
 * The AI SDK downloads a URL part the model does not take by URL; this download function never
 * does, so a URL reaches the provider as given and the engine's process fetches nothing (no SSRF).
 */
const neverDownload = async (requests: ReadonlyArray<{ url: URL }>) => requests.map(() => null);

/** The prompt as text alone, or as one user message of text and file parts. */
function promptOf(prompt: string, files: readonly ModelFile[] | undefined) {
  if (files === undefined || files.length === 0) return { prompt };
  const content = [{ type: 'text' as const, text: prompt }, ...files.map((file) => ({ type: 'file' as const, data: file.data, mediaType: file.mediaType }))];
  return { messages: [{ role: 'user' as const, content }], experimental_download: neverDownload };
}

/**
 * Asks the profile's model for a value matching `schema`, in the profile's structured-output
 * mode, within its timeout and retries. Failures become `MemoryError`s; a value that does not
 * match the schema is `MemoryInvalidResponseError` and is never used. `files` go with the prompt
 * as file parts (images, audio, PDF).
 */
export async function generateStructured<Value>(
  profile: ResolvedLlmProfile,
  request: { schema: z.ZodType<Value>; system: string; prompt: string; files?: readonly ModelFile[] | undefined; signal?: AbortSignal | undefined; operation: string },
): Promise<{ value: Value; usage: CallUsage }> {
  const model = profile.model;
  if (model === undefined) throw new MemoryInvalidResponseError({ message: `${request.operation}: profile ${profile.name} has no model.` });
  const { generateText, Output } = await import('ai');
  const common = {
    model,
    system: request.system,
    ...promptOf(request.prompt, request.files),
    temperature: profile.temperature,
    maxOutputTokens: profile.maxOutputTokens,
    maxRetries: profile.maxRetries,
  };
  try {
    return await withDeadline(request.signal, profile.timeoutMs, async (abortSignal) => {
      if (profile.structuredOutput === 'object') {
        const result = await generateText({ ...common, abortSignal, output: Output.object({ schema: request.schema }) });
        return { value: result.output as Value, usage: usageOf(profile, result.usage, result.usage) };
      }
      const result = await generateText({ ...common, abortSignal, system: `${request.system}\nAnswer with JSON only.` });
      const parsed = request.schema.safeParse(parseJsonText(result.text));
      if (!parsed.success) throw Object.assign(new Error(parsed.error.message), { name: 'AI_TypeValidationError' });
      return { value: parsed.data, usage: usageOf(profile, result.usage, result.usage) };
    });
  } catch (error) {
    throw toMemoryError(error, profile, request.operation);
  }
}

/** Embeds texts with the profile's embedding model; vectors in input order. */
export async function embedTexts(
  profile: ResolvedLlmProfile,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ vectors: Float32Array[]; usage: CallUsage }> {
  const model = profile.embeddingModel;
  if (model === undefined) throw new MemoryInvalidResponseError({ message: `embed: profile ${profile.name} has no embedding model.` });
  const { embedMany } = await import('ai');
  try {
    const result = await withDeadline(signal, profile.timeoutMs, (abortSignal) => embedMany({ model, values: [...texts], maxRetries: profile.maxRetries, abortSignal }));
    if (result.embeddings.length !== texts.length) throw new MemoryInvalidResponseError({ message: 'embed: the model returned a different number of vectors.' });
    return { vectors: result.embeddings.map((vector) => Float32Array.from(vector)), usage: usageOf(profile, result.usage, result.usage, model) };
  } catch (error) {
    throw toMemoryError(error, profile, 'embed');
  }
}
