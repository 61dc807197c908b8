import { bm25TermScore as contribution, inverseDocumentFrequency as inverseFrequency } from '@memplane/rules';
import type { LexicalPostings } from './engine-store';

/** The shape of neighbour windows: `size` items every `stride`, the best adding `weight` times its BM25. */
export interface WindowShape {
  readonly size: number;
  readonly stride: number;
  readonly weight: number;
}

// The BM25 of `@memplane/rules`, as `rankByBm25` computes it, so the scores are the same doubles as
// the reference scan's, not just close.
/** One ranked item of {@link scoreWithWindows}: where it sits in the postings' sequences. */
export interface WindowedScore {
  readonly sequence: number;
  readonly position: number;
  readonly id: string;
  readonly score: number;
}

/**
 * The windows of a sequence of `length` items: starts 0, stride, … while a start lies in the
 * sequence, up to the first window that reaches its end.
 */
const windowCount = (length: number, settings: WindowShape) =>
  Math.min(Math.ceil(length / settings.stride), Math.max(0, Math.ceil((length - settings.size) / settings.stride)) + 1);

/**
 * BM25 with neighbour context over index postings: every item of the sequences scores its own BM25
 * plus `weight` times the BM25 of the best window of neighbours (same scope, write order) holding
 * it, where windows are a corpus of their own (`size` items every `stride`). A question often names
 * words of the turn before or after the one that answers it. Only items and windows that hold a
 * query term are touched; the rest of the range costs one pass over the token counts. Ties go to
 * the smaller id. With `weight` 0 this is plain BM25 of the items.
 */
export function scoreWithWindows(data: LexicalPostings, queryTerms: readonly string[], settings: WindowShape, limit: number): WindowedScore[] {
  const terms = [...new Set(queryTerms)];
  const { sequences } = data;
  let documents = 0;
  let totalLength = 0;
  let windows = 0;
  let totalWindowLength = 0;
  const windowOffsets: number[] = [];
  const itemOffsets: number[] = [];
  for (const sequence of sequences) {
    const { lengths } = sequence;
    const count = lengths.length;
    itemOffsets.push(documents);
    windowOffsets.push(windows);
    documents += count;
    for (let position = 0; position < count; position += 1) totalLength += lengths[position] as number;
    if (settings.weight === 0) continue;
    const perSequence = windowCount(count, settings);
    windows += perSequence;
    // Window lengths sum the lengths of their members: each item counts once per window holding it.
    for (let window = 0; window < perSequence; window += 1) {
      const end = Math.min(window * settings.stride + settings.size, count);
      for (let position = window * settings.stride; position < end; position += 1) totalWindowLength += lengths[position] as number;
    }
  }
  if (terms.length === 0 || documents === 0 || limit <= 0) return [];
  const averageLength = totalLength / documents || 1;
  const averageWindowLength = totalWindowLength / windows || 1;
  const own = new Map<number, number>();
  const windowScores = new Map<number, number>();
  const windowSequence = (window: number) => {
    let sequence = 0;
    while (sequence + 1 < windowOffsets.length && (windowOffsets[sequence + 1] as number) <= window) sequence += 1;
    return sequence;
  };
  for (const term of terms) {
    const postings = data.postings.get(term) ?? [];
    if (postings.length === 0) continue;
    const idf = inverseFrequency(documents, postings.length);
    for (const { sequence, position, tf } of postings) {
      const key = (itemOffsets[sequence] as number) + position;
      const length = (sequences[sequence] as (typeof sequences)[number]).lengths[position] as number;
      own.set(key, (own.get(key) ?? 0) + contribution(idf, tf, length, averageLength));
    }
    if (settings.weight === 0) continue;
    const termInWindow = new Map<number, number>();
    for (const { sequence, position, tf } of postings) {
      const count = (sequences[sequence] as (typeof sequences)[number]).lengths.length;
      const last = Math.min(windowCount(count, settings) - 1, Math.floor(position / settings.stride));
      const first = Math.max(0, Math.ceil((position - settings.size + 1) / settings.stride));
      for (let window = first; window <= last; window += 1) {
        const key = (windowOffsets[sequence] as number) + window;
        termInWindow.set(key, (termInWindow.get(key) ?? 0) + tf);
      }
    }
    const windowIdf = inverseFrequency(windows, termInWindow.size);
    for (const [key, tf] of termInWindow) {
      const sequence = windowSequence(key);
      const window = key - (windowOffsets[sequence] as number);
      const { lengths } = sequences[sequence] as (typeof sequences)[number];
      let length = 0;
      for (let position = window * settings.stride, end = Math.min(position + settings.size, lengths.length); position < end; position += 1) length += lengths[position] as number;
      windowScores.set(key, (windowScores.get(key) ?? 0) + contribution(windowIdf, tf, length, averageWindowLength));
    }
  }
  const best = new Map<number, number>();
  for (const [key, score] of windowScores) {
    if (!(score > 0)) continue;
    const sequence = windowSequence(key);
    const start = (key - (windowOffsets[sequence] as number)) * settings.stride;
    const end = Math.min(start + settings.size, (sequences[sequence] as (typeof sequences)[number]).lengths.length);
    for (let position = start; position < end; position += 1) {
      const item = (itemOffsets[sequence] as number) + position;
      if ((best.get(item) ?? 0) < score) best.set(item, score);
    }
  }
  const ranked: WindowedScore[] = [];
  const itemSequence = (item: number) => {
    let sequence = 0;
    while (sequence + 1 < itemOffsets.length && (itemOffsets[sequence + 1] as number) <= item) sequence += 1;
    return sequence;
  };
  for (const item of new Set([...own.keys(), ...best.keys()])) {
    const score = (own.get(item) ?? 0) + settings.weight * (best.get(item) ?? 0);
    if (!(score > 0)) continue;
    const sequence = itemSequence(item);
    const position = item - (itemOffsets[sequence] as number);
    ranked.push({ sequence, position, id: (sequences[sequence] as (typeof sequences)[number]).itemIds[position] as string, score });
  }
  ranked.sort((left, right) => right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  return ranked.slice(0, limit);
}

