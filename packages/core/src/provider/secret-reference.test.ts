import { describe, expect, it } from 'vitest';
import { isSecretReference, secretReferenceSchema } from './secret-reference';

describe('secret references', () => {
  it('recognises only the two reference shapes', () => {
    expect(isSecretReference({ $secret: { env: 'A' } })).toBe(true);
    expect(isSecretReference({ $secret: { key: 'vault/a' } })).toBe(true);
    for (const value of [{ $secret: { env: '' } }, { $secret: { env: 'A', key: 'b' } }, { $secret: 'A' }, { $secret: { env: 'A' }, other: 1 }, 'A', null]) {
      expect(isSecretReference(value)).toBe(false);
    }
  });

  it('the schema accepts a reference and refuses a plain value', () => {
    expect(secretReferenceSchema.safeParse({ $secret: { env: 'MEM0_API_KEY' } }).success).toBe(true);
    expect(secretReferenceSchema.safeParse('m0-plain-key').success).toBe(false);
  });
});
