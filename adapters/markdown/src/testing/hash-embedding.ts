import { createHash } from 'node:crypto';

/**
 * A deterministic bag-of-words embedding: each lower-cased word adds ±1 to one of `dimensions`
 * buckets chosen by its hash, then the vector is L2-normalised. Texts that share words are
 * similar, so fusion can be tested and measured without a model.
 */
export function hashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    const bucket = digest.readUInt32BE(0) % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + ((digest[4] ?? 0) % 2 === 0 ? 1 : -1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
