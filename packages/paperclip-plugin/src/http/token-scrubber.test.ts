import { MemoryConfigurationError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenScrubber, maxScrubDepth } from './token-scrubber';

describe('the token scrubber', () => {
  it('cuts the token written plainly or with any character JSON-escaped, short escapes and any hex case included', () => {
    const token = 'mps_a/b"c\\d+e=';
    const { text } = createTokenScrubber(token);
    const written = JSON.stringify(token).slice(1, -1); // mps_a/b\"c\\d+e=
    expect(text(`[${token}]`)).toBe('[[token]]');
    for (const form of [written, written.replace('/', '\\/'), '\\u006D\\u0070s_a\\/b\\"c\\\\d\\u002be\\u003D', '\\u006d\\u0070\\u0073\\u005f\\u0061\\u002f\\u0062\\u0022\\u0063\\u005c\\u0064\\u002b\\u0065\\u003d']) {
      // Each is what a JSON string may hold for the token: JSON.parse reads the token back.
      expect(JSON.parse(`"${form}"`)).toBe(token);
      expect(text(`[${form}]`)).toBe('[[token]]');
    }
    expect(text('nothing here')).toBe('nothing here');
  });

  it('leaves no token behind where cutting joins the text around one into another', () => {
    // Cutting the inner occurrence of this token leaves the token itself, once and again.
    const token = 'x[token]y';
    const { text } = createTokenScrubber(token);
    expect(text('xxx[token]yyy')).not.toContain(token);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('x', 'y', '[', ']', 't', 'o', 'k', 'e', 'n'), maxLength: 60 }), (input) => {
        expect(text(input)).not.toContain(token);
      }),
    );
    // A token no longer than the marker is removed outright in the end.
    expect(createTokenScrubber('[token]').text('a[token]b')).not.toContain('[token]');
  });

  it('cuts every string and key of a parsed body, at any depth, and drops what is deeper than it follows', () => {
    const token = 'mps_deep-token-1234';
    const { value } = createTokenScrubber(token);
    expect(value({ [token]: [{ detail: `Bearer ${token}`, n: 1, ok: true, none: null }] })).toEqual({ '[token]': [{ detail: 'Bearer [token]', n: 1, ok: true, none: null }] });
    let nested: unknown = token;
    for (let level = 0; level < maxScrubDepth + 5; level += 1) nested = [nested];
    expect(JSON.stringify(value(nested))).not.toContain(token);
    // __proto__ in a body is a key like any other and never reaches the prototype.
    const parsed = value(JSON.parse(`{"__proto__":{"polluted":"${token}"}}`)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('finds the token anywhere in an error: message, fields, issues, cause chain', () => {
    const token = 'mps_leak-finder-5678';
    const { leaksInto } = createTokenScrubber(token);
    expect(leaksInto(new MemoryConfigurationError({ message: 'fine' }))).toBe(false);
    expect(leaksInto(new MemoryConfigurationError({ message: `Bearer ${token}` }))).toBe(true);
    expect(leaksInto(Object.assign(new MemoryConfigurationError({ message: 'fine' }), { issues: [{ path: 'a', message: token }] }))).toBe(true);
    expect(leaksInto(new MemoryConfigurationError({ message: 'fine', cause: new TypeError('fine', { cause: { body: `\\u006dps_leak-finder-5678` } }) }))).toBe(true);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(leaksInto(new MemoryConfigurationError({ message: 'fine', cause: cyclic }))).toBe(false);
  });

  it('cuts a token of each prefix a memplane host issues or honours (mpk_ of the token store, mps_ and mpt_ imported from the old files)', () => {
    const base64url = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];
    const tokens = fc.tuple(fc.constantFrom('mpk_', 'mps_', 'mpt_'), fc.string({ unit: fc.constantFrom(...base64url), minLength: 43, maxLength: 43 })).map(([prefix, tail]) => `${prefix}${tail}`);
    fc.assert(
      fc.property(tokens, (token) => {
        const { text, leaksInto } = createTokenScrubber(token);
        expect(text(`{"detail":"proxy saw Bearer ${token}"}`)).toBe('{"detail":"proxy saw Bearer [token]"}');
        expect(leaksInto(new MemoryConfigurationError({ message: `Bearer ${token}` }))).toBe(true);
      }),
    );
  });

  it('cuts nothing for an empty token', () => {
    const { text, value, leaksInto } = createTokenScrubber('');
    expect([text('abc'), value({ a: 'b' }), leaksInto(new MemoryConfigurationError({ message: 'x' }))]).toEqual(['abc', { a: 'b' }, false]);
  });
});
