import { MemoryInvalidResponseError, parseInput, type MemoryUsage } from '@memplane/core';
import { z } from 'zod';
import type { MarkdownEmbedder } from './markdown-embedder';
import { postOpenAICompatible, type OpenAICompatibleConnection } from './markdown-openai-http';
import { markdownAdapterKey } from './markdown-snippet';

/** Settings of {@link createOpenAICompatibleEmbedder}. */
export interface OpenAICompatibleEmbedderSettings extends OpenAICompatibleConnection {
  /** The embedding model, such as `text-embedding-3-small` or `nomic-embed-text`. */
  model: string;
  /** The vector length the model returns (or, for models that accept it, the one to ask for). */
  dimensions: number;
  /** Send `dimensions` in the request (OpenAI text-embedding-3 models accept it). Default false. */
  sendDimensions?: boolean;
  /** Who bills for the embeddings, reported as usage `biller`. Default `openai-compatible`. */
  biller?: string;
}

const settingsSchema = z.object({
  baseURL: z.url(),
  apiKey: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  retry: z.record(z.string(), z.number()).optional(),
  fetch: z.custom<typeof fetch>((value) => typeof value === 'function').optional(),
  model: z.string().min(1),
  dimensions: z.number().int().min(1).max(8192),
  sendDimensions: z.boolean().optional(),
  biller: z.string().min(1).optional(),
});

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  model: z.string().optional(),
  usage: z.object({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() }).passthrough().optional(),
});

/**
 * An embedder for any server that speaks OpenAI's `POST /embeddings` (OpenAI, Ollama, vLLM,
 * LM Studio). Usage reports `embeddingTokens` from the response's `usage`, with `raw` set to it;
 * a server that reports no usage reports no tokens.
 */
export function createOpenAICompatibleEmbedder(settings: OpenAICompatibleEmbedderSettings): MarkdownEmbedder {
  const valid = parseInput(settingsSchema, settings, 'OpenAI-compatible embedder settings', 'settings');
  const connection: OpenAICompatibleConnection = { ...settings, baseURL: valid.baseURL };
  return {
    modelId: `${valid.baseURL}#${valid.model}`,
    dimensions: valid.dimensions,
    async embed(texts, options = {}) {
      const response = await postOpenAICompatible(
        connection,
        '/embeddings',
        { model: valid.model, input: texts, encoding_format: 'float', ...(valid.sendDimensions === true ? { dimensions: valid.dimensions } : {}) },
        responseSchema,
        `embeddings (${valid.model})`,
        options.signal,
      );
      const byIndex = new Map<number, number[]>();
      for (const entry of response.data) {
        if (entry.index < texts.length && entry.embedding.length === valid.dimensions) byIndex.set(entry.index, entry.embedding);
      }
      const embeddings = texts.map((_, index) => byIndex.get(index));
      if (embeddings.some((entry) => entry === undefined) || response.data.length !== texts.length) {
        throw new MemoryInvalidResponseError({ message: `embeddings (${valid.model}) returned ${response.data.length} vectors of the wrong count or length for ${texts.length} texts of ${valid.dimensions} dimensions.` });
      }
      const tokens = response.usage?.total_tokens ?? response.usage?.prompt_tokens;
      const usage: MemoryUsage = {
        provider: markdownAdapterKey,
        biller: valid.biller ?? 'openai-compatible',
        model: response.model ?? valid.model,
        billingType: 'metered_api',
        ...(tokens === undefined ? {} : { embeddingTokens: tokens, raw: response.usage }),
        details: { texts: texts.length },
      };
      return { embeddings: embeddings as number[][], usage };
    },
  };
}
