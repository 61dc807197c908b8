import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidCursorError } from '../errors/memory-simple-errors';
import { memoryScopeFields, type MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { stableStringify } from './stable-stringify';

/** What a cursor is bound to. A cursor is only accepted with the same binding it was issued for. */
export interface CursorBinding {
  /** The scope of the listing. A cursor used with another scope is `foreign`. */
  scope: MemoryScope;
  /** The name of the listing, such as `records` or `extraction-jobs`. */
  listing: string;
  /** The listing's filter. A cursor used with another filter is `stale`. */
  filter?: unknown;
}

/** Settings of {@link createCursorCodec}. */
export interface CursorCodecSettings {
  /**
   * The HMAC key that makes cursors tamper-evident. Use the same secret in every process
   * that serves the same listings, so cursors survive restarts. Default: 32 random bytes
   * per codec, so cursors are only valid within the process that issued them.
   */
  secret?: string | Uint8Array;
  /** How long a cursor stays valid, in milliseconds. Older cursors are `stale`. Default 24 hours. */
  maxAgeMs?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** Encodes listing positions as opaque, signed cursors and checks them on the way back. */
export interface CursorCodec {
  /** Encodes a position (any JSON value) for the given binding. */
  encode(position: unknown, binding: CursorBinding): string;
  /** Decodes a cursor issued for the same binding, or throws `InvalidCursorError`. */
  decode(cursor: string, binding: CursorBinding): unknown;
}

const version = 'c1';
const signatureBytes = 18;

/**
 * Digests of canonical JSON, remembered: a listing is paged with the same scope and filter
 * over and over, and hashing them on every page was a fifth of a hosted adapter's own cost
 * per list call. Bounded, and cleared whole when full, which keeps it cheap.
 */
const digests = new Map<string, string>();
const maximumRememberedDigests = 1024;

function digest(canonical: string): string {
  let remembered = digests.get(canonical);
  if (remembered === undefined) {
    remembered = createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
    if (digests.size >= maximumRememberedDigests) digests.clear();
    digests.set(canonical, remembered);
  }
  return remembered;
}

const sortedScopeFields = [...memoryScopeFields].sort();

/**
 * `stableStringify` of the scope's defined fields, written out in sorted field order: every
 * page encodes or checks a cursor, and sorting keys each time cost more than the hash lookup.
 * A test holds it equal to `stableStringify` of the normalized scope.
 */
export function canonicalScope(scope: MemoryScope): string {
  let text = '{';
  for (const field of sortedScopeFields) {
    const value = scope[field];
    if (value === undefined) continue;
    text += `${text.length === 1 ? '' : ','}"${field}":${stableStringify(value)}`;
  }
  return `${text}}`;
}

/** `stableStringify({ listing, filter })`, with its two keys written in sorted order. */
export function canonicalListing(binding: CursorBinding): string {
  return `{"filter":${stableStringify(binding.filter ?? null)},"listing":${JSON.stringify(binding.listing)}}`;
}

/** Creates a codec for opaque, tamper-evident cursors bound to a scope and a listing. */
export function createCursorCodec(settings: CursorCodecSettings = {}): CursorCodec {
  // A key object is imported once, not on every signature.
  const secret = createSecretKey(settings.secret === undefined ? randomBytes(32) : typeof settings.secret === 'string' ? Buffer.from(settings.secret) : settings.secret);
  const maxAgeMs = settings.maxAgeMs ?? 24 * 60 * 60 * 1000;
  const now = settings.now ?? Date.now;
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest().subarray(0, signatureBytes);

  return {
    encode(position, binding) {
      const body = Buffer.from(
        JSON.stringify({
          s: digest(canonicalScope(binding.scope)),
          l: digest(canonicalListing(binding)),
          t: now(),
          p: position,
        }),
      ).toString('base64url');
      return `${version}.${body}.${sign(body).toString('base64url')}`;
    },
    decode(cursor, binding) {
      const parts = cursor.split('.');
      if (parts.length !== 3 || parts[0] !== version) throw new InvalidCursorError({ reason: 'malformed' });
      const [, body = '', signature = ''] = parts;
      // Compare the signature's text, not its decoded bytes: base64url decoding ignores
      // trailing characters, and a changed cursor must never be accepted.
      const given = Buffer.from(signature);
      const expected = Buffer.from(sign(body).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new InvalidCursorError({ reason: 'tampered' });
      }
      let decoded: { s?: unknown; l?: unknown; t?: unknown; p?: unknown };
      try {
        decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof decoded;
      } catch (cause) {
        throw new InvalidCursorError({ reason: 'malformed', cause });
      }
      if (typeof decoded !== 'object' || decoded === null) throw new InvalidCursorError({ reason: 'malformed' });
      if (decoded.s !== digest(canonicalScope(binding.scope))) throw new InvalidCursorError({ reason: 'foreign' });
      if (decoded.l !== digest(canonicalListing(binding))) {
        throw new InvalidCursorError({ reason: 'stale' });
      }
      if (typeof decoded.t !== 'number' || now() - decoded.t > maxAgeMs) throw new InvalidCursorError({ reason: 'stale' });
      return decoded.p;
    },
  };
}
