import { createHash } from 'node:crypto';
import { InvalidCursorError, type CursorBinding, type CursorCodec } from '@memplane/core';
import { z } from 'zod';

/**
 * Where a list walk stands. mem0 pages by page number, which skips or repeats records when
 * the scope changes during a walk, so the adapter walks by `created_at` instead:
 * - `keyset`: the walk has examined every record up to `createdAt` in mem0's order
 *   (`direction`), and at exactly `createdAt` the records whose id digests are in `seen`;
 *   the next page asks mem0 for `created_at gte` (or `lte`) that timestamp;
 * - `offset`: mem0 returned records in no `created_at` order, so the walk falls back to
 *   mem0's own paging, item `offset` onwards (and says so in a warning).
 */
export type Mem0ListPosition =
  | { kind: 'keyset'; direction: 'ascending' | 'descending'; createdAt: string; seen: string[] }
  | { kind: 'offset'; offset: number };

/** The most id digests a cursor carries: records sharing one `created_at` beyond this cannot be paged. */
export const maximumSeenDigests = 250;

const positionSchema = z.union([
  z.strictObject({ k: z.literal('a'), t: z.string().min(1).max(64), s: z.array(z.string().max(16)).max(maximumSeenDigests) }),
  z.strictObject({ k: z.literal('d'), t: z.string().min(1).max(64), s: z.array(z.string().max(16)).max(maximumSeenDigests) }),
  z.strictObject({ k: z.literal('o'), o: z.number().int().positive() }),
]);

const digestCache = new Map<string, string>();

/**
 * A short digest of a memory id, so a cursor can name many records. Remembered (up to 4096
 * ids), because every page digests the records that share its last timestamp, and walks
 * and repeated lists meet the same ids again.
 */
export function digestId(memoryId: string): string {
  let digest = digestCache.get(memoryId);
  if (digest === undefined) {
    digest = createHash('sha256').update(memoryId).digest('base64url').slice(0, 8);
    if (digestCache.size >= 4096) digestCache.clear();
    digestCache.set(memoryId, digest);
  }
  return digest;
}

/**
 * A sortable key of a mem0 timestamp (ISO 8601 with optional fraction and offset), precise
 * to the microsecond, or undefined when the value is not such a timestamp. mem0 returns
 * both `Z` and `-07:00` forms, so strings are not compared directly.
 */
export function createdAtKey(value: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (match === null) return undefined;
  const [, base = '', fraction = '', zone = 'Z'] = match;
  const milliseconds = Date.parse(`${base}.${fraction.padEnd(3, '0').slice(0, 3)}${zone}`);
  if (Number.isNaN(milliseconds) || milliseconds < 0) return undefined;
  return `${String(milliseconds).padStart(15, '0')}.${fraction.slice(3).padEnd(6, '0').slice(0, 6)}`;
}

/** Encodes a position into a signed cursor bound to the scope and filter. */
export function encodePosition(cursors: CursorCodec, position: Mem0ListPosition, binding: CursorBinding): string {
  const compact =
    position.kind === 'offset'
      ? { k: 'o', o: position.offset }
      : { k: position.direction === 'ascending' ? 'a' : 'd', t: position.createdAt, s: position.seen };
  return cursors.encode(compact, binding);
}

/** Decodes a cursor, or throws `InvalidCursorError`. */
export function decodePosition(cursors: CursorCodec, cursor: string, binding: CursorBinding): Mem0ListPosition {
  const parsed = positionSchema.safeParse(cursors.decode(cursor, binding));
  if (!parsed.success) throw new InvalidCursorError({ reason: 'malformed', cause: parsed.error });
  const value = parsed.data;
  if (value.k === 'o') return { kind: 'offset', offset: value.o };
  if (createdAtKey(value.t) === undefined) throw new InvalidCursorError({ reason: 'malformed' });
  return { kind: 'keyset', direction: value.k === 'a' ? 'ascending' : 'descending', createdAt: value.t, seen: value.s };
}
