import { MemoryApiCallError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretRedactor, redactedText } from './secret-redactor';

describe('the secret redactor', () => {
  it('replaces every known value, in every encoding, anywhere in a value, copying only what changed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 40 }).filter((value) => value.trim() !== '' && !redactedText.includes(value)), fc.string(), fc.string(), (secret, before, after) => {
        const redactor = createSecretRedactor();
        redactor.add([secret]);
        const untouched = { nested: [{ text: 'nothing here' }] };
        const value = {
          plain: `${before}${secret}${after}`,
          url: `https://x.example/?key=${encodeURIComponent(secret)}`,
          json: JSON.stringify({ secret }),
          basic: Buffer.from(secret).toString('base64'),
          [secret]: 'as a key',
          untouched,
        };
        const redacted = redactor.redact(value);
        const text = JSON.stringify(redacted);
        for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('base64')]) {
          expect(text.includes(form) && !redactedText.includes(form)).toBe(false);
        }
        expect(redacted.untouched).toBe(untouched);
        expect(value.plain).toBe(`${before}${secret}${after}`);
      }),
    );
  });

  it('redacts errors in place: message, stack, own fields and the whole cause chain', () => {
    const redactor = createSecretRedactor();
    redactor.add(['sk-live-abcdef']);
    const root = new Error('upstream said sk-live-abcdef');
    const error = new MemoryApiCallError({ message: 'GET /v1?api_key=sk-live-abcdef failed', cause: root, isRetryable: false });
    Object.assign(error, { url: 'https://x/?api_key=sk-live-abcdef' });
    expect(redactor.redactError(error)).toBe(error);
    expect(MemoryApiCallError.isInstance(error)).toBe(true);
    expect(JSON.stringify({ message: error.message, stack: error.stack, cause: root.message, causeStack: root.stack, url: (error as unknown as { url: string }).url })).not.toContain('sk-live-abcdef');
    // A frozen error or a cycle is no reason to throw.
    const frozen = Object.freeze(new Error('sk-live-abcdef'));
    const cyclic: Record<string, unknown> = { text: 'sk-live-abcdef' };
    cyclic.self = cyclic;
    expect(() => redactor.redactError(frozen)).not.toThrow();
    expect((redactor.redact(cyclic) as { text: string }).text).toBe(redactedText);
  });

  it('is a no-op until it knows a value', () => {
    const redactor = createSecretRedactor();
    const value = { text: 'anything' };
    expect(redactor.active).toBe(false);
    expect(redactor.redact(value)).toBe(value);
    redactor.add(['', 'x-secret-value']);
    expect(redactor.active).toBe(true);
    expect(redactor.redactText('a x-secret-value b')).toBe(`a ${redactedText} b`);
  });
});
