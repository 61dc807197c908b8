import { describe, expect, it } from 'vitest';
import { cursorSecretSchema, retryPolicyOverridesSchema } from './retry-policy-schema';

describe('retryPolicyOverridesSchema', () => {
  it('accepts partial overrides and refuses unknown keys, fractions and more than 10 retries', () => {
    expect(retryPolicyOverridesSchema.safeParse({ maxRetries: 0 }).success).toBe(true);
    expect(retryPolicyOverridesSchema.safeParse({}).success).toBe(true);
    expect(retryPolicyOverridesSchema.safeParse({ maxRetries: 11 }).success).toBe(false);
    expect(retryPolicyOverridesSchema.safeParse({ initialDelayMs: 1.5 }).success).toBe(false);
    expect(retryPolicyOverridesSchema.safeParse({ backoffFactor: 0.5 }).success).toBe(false);
    expect(retryPolicyOverridesSchema.safeParse({ retries: 2 }).success).toBe(false);
  });
});

describe('cursorSecretSchema', () => {
  it('accepts 16 characters or bytes and refuses shorter strings', () => {
    expect(cursorSecretSchema.safeParse('0123456789abcdef').success).toBe(true);
    expect(cursorSecretSchema.safeParse(new Uint8Array(32)).success).toBe(true);
    expect(cursorSecretSchema.safeParse('short').success).toBe(false);
  });
});
