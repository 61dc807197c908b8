import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The largest binary resource `memorize` takes, in bytes (after base64 decoding): 20 MiB. */
export const maxResourceBytes = 20 * 1024 * 1024;

/** What a binary resource is to the engine: the modality it is preprocessed as. */
export type MediaKind = 'image' | 'audio' | 'pdf';

/**
 * The media types `memorize` accepts as bytes, with the signature their first bytes must carry.
 * A file whose bytes do not start like its declared type is refused: a check that cannot tell what
 * a file is does not pass it on to a model.
 */
const allowedMedia: Readonly<Record<string, { kind: MediaKind; matches(bytes: Uint8Array): boolean }>> = {
  'image/png': { kind: 'image', matches: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  'image/jpeg': { kind: 'image', matches: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]) },
  'image/gif': { kind: 'image', matches: (bytes) => ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a') },
  'image/webp': { kind: 'image', matches: (bytes) => ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP') },
  'application/pdf': { kind: 'pdf', matches: (bytes) => ascii(bytes, 0, '%PDF-') },
  'audio/mpeg': { kind: 'audio', matches: (bytes) => ascii(bytes, 0, 'ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) },
  'audio/wav': { kind: 'audio', matches: (bytes) => ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE') },
  'audio/ogg': { kind: 'audio', matches: (bytes) => ascii(bytes, 0, 'OggS') },
  'audio/flac': { kind: 'audio', matches: (bytes) => ascii(bytes, 0, 'fLaC') },
  'audio/webm': { kind: 'audio', matches: (bytes) => startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]) },
  'audio/mp4': { kind: 'audio', matches: (bytes) => ascii(bytes, 4, 'ftyp') },
};

/** The accepted media types of binary resources. */
export const allowedMediaTypes: readonly string[] = Object.keys(allowedMedia);

/**
 * The accepted media type a declared one names, or undefined. Only the table's own keys count: a
 * declared `__proto__`, `constructor` or `toString` would otherwise reach the object's prototype.
 */
function acceptedMedia(mimeType: string): (typeof allowedMedia)[string] | undefined {
  const type = normalizeMediaType(mimeType);
  return Object.hasOwn(allowedMedia, type) ? allowedMedia[type] : undefined;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  return [...text].every((char, index) => bytes[offset + index] === char.charCodeAt(0));
}

/** The media kind of an accepted media type (after lowercasing and dropping parameters). */
export function mediaKindOf(mimeType: string | undefined): MediaKind | undefined {
  return mimeType === undefined ? undefined : acceptedMedia(mimeType)?.kind;
}

/** `Image/PNG; x=1` → `image/png`. */
export function normalizeMediaType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Standard padded base64, checked in one pass: a regular expression over a 28 MB string
 * overflows the stack, so this loop is the only check that runs on untrusted lengths.
 */
function isStandardBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  for (let index = 0; index < text.length - padding; index += 1) {
    const code = text.charCodeAt(index);
    const alphabet = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47;
    if (!alphabet) return false;
  }
  return true;
}
/** The base64 length of `maxResourceBytes`: longer strings are refused before they are decoded. */
const maxBase64Length = Math.ceil(maxResourceBytes / 3) * 4;

/** The bytes of a resource's `data`: a `Uint8Array` as given, or standard base64 decoded. */
export function resourceBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'base64')) : data;
}

/** `data` of a resource input: bytes, or standard (padded, no line breaks) base64 of them. */
export const resourceDataSchema = z.union([
  // Any Uint8Array (a Node Buffer too), whatever buffer backs it.
  z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'must be a Uint8Array or a base64 string').refine((bytes) => bytes.byteLength > 0, 'must not be empty').refine((bytes) => bytes.byteLength <= maxResourceBytes, `must be at most ${maxResourceBytes} bytes`),
  z.string().superRefine((text, context) => {
    if (text.length === 0) context.addIssue({ code: 'custom', message: 'must not be empty' });
    else if (text.length > maxBase64Length) context.addIssue({ code: 'custom', message: `must be at most ${maxResourceBytes} bytes` });
    else if (!isStandardBase64(text)) context.addIssue({ code: 'custom', message: 'must be standard base64 (A-Z a-z 0-9 + /, padded with =, no line breaks)' });
  }),
]);

/** Issues with the bytes and media type of a binary resource, as `[path, message]`. */
export function binaryIssues(data: Uint8Array | string, mimeType: string | undefined): Array<[string, string]> {
  if (mimeType === undefined) return [['mimeType', `is required with data (one of ${allowedMediaTypes.join(', ')})`]];
  const media = acceptedMedia(mimeType);
  if (media === undefined) return [['mimeType', `${JSON.stringify(mimeType.slice(0, 100))} is not an accepted media type (one of ${allowedMediaTypes.join(', ')})`]];
  const bytes = resourceBytes(data);
  if (bytes.byteLength > maxResourceBytes) return [['data', `must be at most ${maxResourceBytes} bytes`]];
  if (!media.matches(bytes)) return [['data', `does not start like ${normalizeMediaType(mimeType)} (the file signature does not match the declared mimeType)`]];
  return [];
}

/** SHA-256 of bytes, hex: the identity of a binary resource (with its media type). */
export function bytesHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * An upper bound of the pages of a PDF when its page objects are readable without decompression
 * (`/Type /Page` entries); `undefined` when they sit in compressed object streams. Only used to
 * refuse a model answer that cites a page the file cannot have.
 */
export function pdfPageBound(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const count = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return count === 0 ? undefined : count;
}
