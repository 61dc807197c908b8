import { createHash } from 'node:crypto';
import { stableStringify } from '@memplane/core';

/** SHA-256 of a text, hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 of the canonical JSON of a value (core's `stableStringify`: keys sorted), hex. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(stableStringify(value));
}
