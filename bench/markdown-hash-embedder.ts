import { createHash } from 'node:crypto';
import type { MarkdownEmbedder } from '@memplane/markdown';

const stopwords = new Set(
  'the a an and or but if of to in on at by for with from as is are was were be been being it its this that these those i you he she we they me him her us them my your his our their what when where which who whom why how do does did have has had not no so just very can will would should could about into than then there here also too'.split(' '),
);

/**
 * An in-process embedder for benchmarks: a bag-of-words feature hash (stopwords and one- or
 * two-letter words dropped), L2-normalised. It needs no model, so fusion can be measured offline;
 * it is not a semantic embedding.
 */
export function hashEmbedder(dimensions: number): MarkdownEmbedder {
  const embedOne = (text: string) => {
    const vector = new Float32Array(dimensions);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length < 3 || stopwords.has(word)) continue;
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
