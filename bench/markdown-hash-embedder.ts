import { createHash } from 'node:crypto';
import type { MarkdownEmbedder } from '@memplane/markdown';

/**
 * An in-process embedder for benchmarks: a bag-of-words feature hash, L2-normalised. It needs no
 * model, so fusion can be measured offline; it is not a semantic embedding.
 */
export function hashEmbedder(dimensions: number): MarkdownEmbedder {
  const embedOne = (text: string) => {
    const vector = new Float32Array(dimensions);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const digest = createHash('sha1').update(word).digest();
      const bucket = digest.readUInt32BE(0) % dimensions;
      vector[bucket] = (vector[bucket] ?? 0) + ((digest[4] ?? 0) % 2 === 0 ? 1 : -1);
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    return vector.map((value) => value / norm);
  };
  return {
    modelId: `bench-hash-${dimensions}`,
    dimensions,
    async embed(texts) {
      return { embeddings: texts.map(embedOne) };
    },
  };
}
