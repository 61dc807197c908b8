import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after';

const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

describe('parseRetryAfter', () => {
  it('reads delta seconds as milliseconds', () => {
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 2 ', now)).toBe(2000);
  });

  it('reads fractional seconds, rounded to whole milliseconds', () => {
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('0.0004', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until then', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:04 GMT', now)).toBe(4000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:30:00 GMT', now)).toBe(120_000);
  });

  it('never returns a negative wait for a date in the past', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('uses the current time when none is given', () => {
    const inOneMinute = new Date(Date.now() + 60_000).toUTCString();
    const wait = parseRetryAfter(inOneMinute);
    // HTTP dates have whole seconds, so up to a second is lost.
    expect(wait).toBeGreaterThan(58_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it.each([null, undefined, '', '   ', 'soon', 'tomorrow-ish'])('returns undefined for %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
