import type { MemoryUsage } from '@memplane/core';

/** What an embedder returns for one call. */
export interface EmbeddingResult {
  /** One vector per input text, in input order, each of `dimensions` numbers. */
  embeddings: ReadonlyArray<ArrayLike<number>>;
  /** Usage of the call, when the provider reported it (provider = the adapter key, biller = the vendor). */
  usage?: MemoryUsage;
}

/**
 * Turns texts into vectors. Implement it for any model, or use `createOpenAICompatibleEmbedder`
 * (OpenAI, Ollama, vLLM and LM Studio all speak that API).
 */
export interface MarkdownEmbedder {
  /** A stable id of the model and its settings; part of the embedding cache key, so changing it re-embeds. */
  readonly modelId: string;
  /** The length of every vector. */
  readonly dimensions: number;
  /** Embeds texts. Throws a `MemoryError` on failure (the write or query that needed it fails, and nothing is written). */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<EmbeddingResult>;
}
