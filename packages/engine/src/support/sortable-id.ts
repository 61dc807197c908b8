import { randomBytes } from 'node:crypto';

let lastTime = 0;
let counter = 0;

/**
 * A new id that sorts in creation order within a process: milliseconds since the epoch and a
 * counter (base 36, fixed width), then random bits. Items listed by (createdAt, id) come back in
 * the order they were written, which neighbour windows in retrieval rely on.
 */
export function sortableId(prefix: string): string {
  const now = Date.now();
  if (now === lastTime) counter += 1;
  else {
    lastTime = now;
    counter = 0;
  }
  return `${prefix}_${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(4, '0')}${randomBytes(8).toString('hex')}`;
}
