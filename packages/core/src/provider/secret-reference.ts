import { z } from 'zod';
import type { SecretReference } from './memory-provider-definition';

/** Whether a value is a well-formed secret reference. */
export function isSecretReference(value: unknown): value is SecretReference {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== '$secret') return false;
  const inner = (value as { $secret: unknown }).$secret;
  if (typeof inner !== 'object' || inner === null) return false;
  const innerKeys = Object.keys(inner);
  if (innerKeys.length !== 1) return false;
  const name = (inner as Record<string, unknown>)[innerKeys[0]!];
  return (innerKeys[0] === 'env' || innerKeys[0] === 'key') && typeof name === 'string' && name.trim() !== '' && name.length <= 256;
}

/** A config field that must hold a secret reference. Use it in provider config schemas. */
export const secretReferenceSchema = z.custom<SecretReference>(
  isSecretReference,
  'must be a secret reference ({ $secret: { env: NAME } } or { $secret: { key: KEY } })',
);
