import { createOpenAICompatibleEmbedder, type MarkdownEmbedder } from '@memplane/markdown';
import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { hashEmbedder } from './markdown-hash-embedder';

/**
 * The embedders of the engine benchmarks, as AI SDK embedding models (what engine profiles take):
 * the markdown benchmarks' hashing embedder, or an OpenAI-compatible server when
 * MEMPLANE_EMBEDDINGS_URL, MEMPLANE_EMBEDDINGS_MODEL (and MEMPLANE_EMBEDDINGS_DIMENSIONS) are set,
 * so both adapters embed with exactly the same function.
 */
export function embeddingModelOf(embedder: MarkdownEmbedder): EmbeddingModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'memplane-bench',
    modelId: embedder.modelId,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      const { embeddings } = await embedder.embed(values);
      return { embeddings: embeddings.map((vector) => Array.from(vector)), warnings: [] };
    },
  };
}

/** The configured OpenAI-compatible embedder, or undefined when the environment names none. */
export function serverEmbedder(): MarkdownEmbedder | undefined {
  const url = process.env.MEMPLANE_EMBEDDINGS_URL;
  const model = process.env.MEMPLANE_EMBEDDINGS_MODEL;
  if (url === undefined || model === undefined) return undefined;
  return createOpenAICompatibleEmbedder({
    baseURL: url,
    model,
    dimensions: Number(process.env.MEMPLANE_EMBEDDINGS_DIMENSIONS ?? 768),
    ...(process.env.MEMPLANE_EMBEDDINGS_KEY === undefined ? {} : { apiKey: process.env.MEMPLANE_EMBEDDINGS_KEY }),
  });
}

export { hashEmbedder };
