import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostAllowed, hostnameOf, isLoopbackAddress, loopbackHostnames, originAllowed } from './mcp-http-guards';

const loopback = [...loopbackHostnames];

describe('the DNS rebinding checks', () => {
  it('accept the loopback names on any port, and nothing else', () => {
    for (const name of loopback) {
      expect(hostAllowed(name, loopback)).toBe(true);
      expect(hostAllowed(`${name}:8765`, loopback)).toBe(true);
    }
    for (const header of ['evil.example', 'evil.example:8765', 'localhost.evil.example', '127.0.0.1.nip.io', 'localhost@evil.example', 'localhost:80@evil', '', '[::2]', undefined]) {
      expect(hostAllowed(header, loopback)).toBe(false);
    }
  });

  it('never accept a Host whose name is not listed, whatever it looks like (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.domain(), fc.ipV4(), fc.webUrl()), fc.option(fc.integer({ min: 0, max: 65535 })), (name, port) => {
        const header = port === null ? name : `${name}:${port}`;
        const allowed = hostAllowed(header, loopback);
        if (allowed) expect(loopback).toContain(hostnameOf(header));
      }),
      { numRuns: 500 },
    );
  });

  it('accept an Origin only when listed exactly or on a loopback name, and no Origin at all (programs)', () => {
    expect(originAllowed(undefined, [], true)).toBe(true);
    expect(originAllowed('http://localhost:5173', [], true)).toBe(true);
    expect(originAllowed('https://127.0.0.1', [], true)).toBe(true);
    expect(originAllowed('http://[::1]:3000', [], true)).toBe(true);
    expect(originAllowed('http://localhost:5173', [], false)).toBe(false);
    expect(originAllowed('https://app.example.com', ['https://app.example.com'], false)).toBe(true);
    for (const origin of ['http://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'null', 'file://', 'chrome-extension://abc', 'http://localhost:5173/path', 'https://app.example.com:444']) {
      expect(originAllowed(origin, ['https://app.example.com'], true)).toBe(false);
    }
  });

  it('never accept an Origin whose host is not loopback or listed (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl(), fc.string(), fc.webUrl({ withFragments: true, withQueryParameters: true })), (origin) => {
        if (!originAllowed(origin, [], true)) return;
        expect(loopback).toContain(new URL(origin).hostname);
      }),
      { numRuns: 500 },
    );
  });

  it('know loopback bind addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1'].every(isLoopbackAddress)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', 'example.com'].some(isLoopbackAddress)).toBe(false);
  });
});
