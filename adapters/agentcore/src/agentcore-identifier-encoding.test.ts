import { describe, expect, it } from 'vitest';
import { decodeIdentifier, encodeIdentifier, isHashedIdentifier, maximumEncodedIdentifierLength } from './agentcore-identifier-encoding';

const samples = ['acme', 'c1', 'c10', 'a_b', 'a/b', 'a-b', 'A.B@example.com', 'Grüße 你好 👩‍💻', '../../etc', '_41', 'x'.repeat(96), '*', ':', ''];

describe('encodeIdentifier', () => {
  it('keeps letters, digits and dashes and escapes everything else as _XX', () => {
    expect(encodeIdentifier('acme-42')).toBe('acme-42');
    expect(encodeIdentifier('a_b')).toBe('a_5Fb');
    expect(encodeIdentifier('a/b')).toBe('a_2Fb');
    expect(encodeIdentifier('ü')).toBe('_C3_BC');
  });

  it('only ever produces characters every AgentCore identifier accepts, never a slash', () => {
    for (const sample of samples) expect(encodeIdentifier(sample)).toMatch(/^[A-Za-z0-9_-]*$/);
  });

  it('is injective: distinct identifiers never share an encoding', () => {
    const encoded = samples.map(encodeIdentifier);
    expect(new Set(encoded).size).toBe(samples.length);
    // The classic trap: an escape sequence written literally must not collide with the escaped character.
    expect(encodeIdentifier('_2F')).not.toBe(encodeIdentifier('/'));
  });

  it('round-trips through decodeIdentifier', () => {
    for (const sample of samples.filter((value) => value !== '')) expect(decodeIdentifier(encodeIdentifier(sample))).toBe(sample);
  });

  it('stores an identifier whose encoding is too long as a SHA-256 digest, stable and distinct', () => {
    const long = 'ü'.repeat(40);
    const encoded = encodeIdentifier(long);
    expect(encoded).toMatch(/^_h[0-9a-f]{64}$/);
    expect(encoded.length).toBeLessThanOrEqual(maximumEncodedIdentifierLength);
    expect(isHashedIdentifier(encoded)).toBe(true);
    expect(encodeIdentifier(long)).toBe(encoded);
    expect(encodeIdentifier(`${long}x`)).not.toBe(encoded);
    expect(decodeIdentifier(encoded)).toBeUndefined();
    expect(encodeIdentifier('x'.repeat(maximumEncodedIdentifierLength))).toBe('x'.repeat(maximumEncodedIdentifierLength));
    expect(isHashedIdentifier(encodeIdentifier('x'.repeat(maximumEncodedIdentifierLength + 1)))).toBe(true);
  });
});

describe('decodeIdentifier', () => {
  it('refuses anything that is not a canonical encoding', () => {
    for (const invalid of ['a/b', 'a_2f', 'a_', 'a_ZZ', '', 'a b', '_41']) expect(decodeIdentifier(invalid)).toBeUndefined();
  });
});
