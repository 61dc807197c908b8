import { randomBytes } from 'node:crypto';

let lastTime = 0;
let sequence = 0;
// One call to the random source per 512 ids instead of one per id.
let pool = randomBytes(0);
let offset = 0;

function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(bytes * 512);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/**
 * A new id: a prefix, the time in base 36 and random characters. Ids created later in the same
 * process sort after earlier ones, so list order follows creation order; across processes the
 * random part keeps them unique.
 */
export function createId(prefix: 'm' | 'r' | 'j', now: number = Date.now()): string {
  if (now <= lastTime) sequence += 1;
  else {
    lastTime = now;
    sequence = 0;
  }
  const time = Math.max(now, lastTime).toString(36).padStart(9, '0');
  return `${prefix}_${time}${sequence.toString(36).padStart(3, '0')}${randomHex(6)}`;
}
