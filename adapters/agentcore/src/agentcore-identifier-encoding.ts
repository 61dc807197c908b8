import { createHash } from 'node:crypto';

/**
 * The longest encoded identifier. It keeps a namespace (`/c/{company}/a/{agent}/`) and an
 * actor id (`c/{company}/a/{agent}`, at most 255 characters) within AgentCore's limits, and
 * a metadata value within its 256 characters.
 */
export const maximumEncodedIdentifierLength = 96;

const hashedPrefix = '_h';
const keptCharacter = /^[A-Za-z0-9-]$/;
const encodedPattern = /^(?:[A-Za-z0-9-]|_[0-9A-F]{2})+$/;

/**
 * Encodes a memplane identifier (a company id, an agent id, a session key) into the
 * characters every AgentCore identifier accepts: `[A-Za-z0-9_-]`. Letters, digits and `-`
 * stay as they are; every other UTF-8 byte, `_` and `/` included, becomes `_XX`
 * (uppercase hex). So the encoding is injective, and no value can contain a `/` that would
 * break out of its namespace segment or make one company's namespace a prefix of another's.
 *
 * An identifier whose encoding is longer than {@link maximumEncodedIdentifierLength}
 * becomes `_h` and its SHA-256 in hex instead, which never collides with an escaped
 * encoding (an escape is `_` and two uppercase hex digits, never `_h`).
 */
export function encodeIdentifier(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const character = String.fromCharCode(byte);
    encoded += byte < 0x80 && keptCharacter.test(character) ? character : `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (encoded.length > maximumEncodedIdentifierLength) return hashIdentifier(value);
  }
  return encoded;
}

function hashIdentifier(value: string): string {
  return `${hashedPrefix}${createHash('sha256').update(value, 'utf8').digest('hex')}`;
}

/** Whether an encoded identifier is a digest, which cannot be decoded back. */
export function isHashedIdentifier(encoded: string): boolean {
  return encoded.startsWith(hashedPrefix);
}

/**
 * Decodes an identifier encoded by {@link encodeIdentifier}. Returns undefined for a digest
 * and for anything that is not a valid encoding (a namespace or value not written by this
 * adapter), so such values never match a requested scope by accident.
 */
export function decodeIdentifier(encoded: string): string | undefined {
  if (isHashedIdentifier(encoded) || !encodedPattern.test(encoded)) return undefined;
  const bytes: number[] = [];
  for (let index = 0; index < encoded.length; index += 1) {
    const character = encoded[index] as string;
    if (character === '_') {
      bytes.push(Number.parseInt(encoded.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(character.charCodeAt(0));
    }
  }
  const decoded = Buffer.from(bytes).toString('utf8');
  // Only the canonical encoding decodes, so every identifier has exactly one stored form.
  return encodeIdentifier(decoded) === encoded ? decoded : undefined;
}
