import { describe, expect, it } from 'vitest';
import { detectPii } from './pii-detection';
import { initialStatus, meetsKindThreshold } from './memory-taxonomy';

describe('PII detection', () => {
  it.each([
    ['email', 'write to jane.doe+work@example.co.uk today'],
    ['phone', 'call me at (415) 555-0134'],
    ['phone', 'or +4915112345678'],
    ['card', 'card 4111 1111 1111 1111 exp 12/29'],
    ['api-key', 'key sk-proj-abcdefghijklmnop1234 leaked'],
    ['api-key', 'AKIAIOSFODNN7EXAMPLE is the id'],
    ['us-ssn', 'SSN 123-45-6789'],
    ['uk-nino', 'NI number AB 12 34 56 C'],
    ['api-key', 'token sk-abcdefghijklmnopqrst without digits'],
    ['api-key', 'github ghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'],
    ['api-key', 'slack xoxb-abcdefghijklmn'],
    ['api-key', 'google AIzaabcdefghijklmnopqrstuvwxyzABCDEFGHI'],
    ['api-key', 'gitlab glpat-abcdefghijklmnopqrstu'],
  ])('finds raw %s (risk 2)', (kind, text) => {
    expect(detectPii(text)).toEqual({ risk: 2, kinds: expect.arrayContaining([kind]) });
  });

  it.each(['mail [REDACTED] later', 'card **** **** **** 1111', 'ssn xxx-xx-6789', 'reach me at x**@example.org', 'name <REDACTED> here', 'card XXXX-XXXX-XXXX 4242'])('gives masked PII risk 1: %s', (text) => {
    expect(detectPii(text).risk).toBe(1);
  });

  it.each(['The deploy window is Tuesday at 14:00 UTC.', 'Version 4111 shipped in 2026.', 'order 1234 5678 9012 3456'])('finds nothing in %j', (text) => {
    expect(detectPii(text).risk).toBe(0);
  });
});

describe('status workflow', () => {
  it('approves at confidence 0.60 with PII risk below 2, and holds the rest for review', () => {
    expect(initialStatus(0.6, 0)).toBe('approved');
    expect(initialStatus(0.6, 1)).toBe('approved');
    expect(initialStatus(0.59, 0)).toBe('pending');
    expect(initialStatus(0.99, 2)).toBe('pending');
  });

  it('applies each kind threshold', () => {
    expect(meetsKindThreshold('profile', 0.84)).toBe(false);
    expect(meetsKindThreshold('profile', 0.85)).toBe(true);
    expect(meetsKindThreshold('hypothesis', 0.5)).toBe(true);
    expect(meetsKindThreshold('todo', 0.57)).toBe(false);
  });
});
