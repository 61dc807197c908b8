import { z } from 'zod';
import { isSecretReference, type SecretReference } from '../bindings/secret-reference';

/** A config field that must hold a secret reference. Use it in provider config schemas. */
export const secretReferenceSchema = z.custom<SecretReference>(
  isSecretReference,
  'must be a secret reference ({ $secret: { env: NAME } } or { $secret: { key: KEY } })',
);
