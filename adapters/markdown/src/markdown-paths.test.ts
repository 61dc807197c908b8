import { join, resolve } from 'node:path';
import { MemoryScopeViolationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { encodePathSegment, resolveInsideRoot, scopeFolder } from './markdown-paths';

const root = '/tmp/memplane-root';
const hostile = ['..', '.', '../../etc', '/etc/passwd', 'a/../../b', 'C:\\Windows', '..\\..\\x', '.hidden', 'x'.repeat(256), 'ü'.repeat(200), 'a b', '%2e%2e'];

describe('markdown paths', () => {
  it.each(hostile)('keeps %j inside the root as one safe segment', (value) => {
    const segment = encodePathSegment(value);
    expect(segment).not.toMatch(/[/\\\u0000]/);
    expect(segment).not.toMatch(/^\./);
    expect(segment.length).toBeLessThanOrEqual(80);
    const folder = scopeFolder({ companyId: value, agentId: value, namespace: value });
    const absolute = resolveInsideRoot(root, `${folder}/2026-11-22.md`);
    expect(absolute.startsWith(`${resolve(root)}/companies/`)).toBe(true);
  });

  it('gives different identifiers different segments, also when they are long', () => {
    const long = 'y'.repeat(300);
    expect(encodePathSegment(`${long}a`)).not.toBe(encodePathSegment(`${long}b`));
    expect(encodePathSegment('a/b')).not.toBe(encodePathSegment('a%2Fb'));
    expect(encodePathSegment('acme')).toBe('acme');
  });

  it('refuses paths that leave the root', () => {
    for (const path of ['../x.md', '/etc/passwd', 'companies/../../x', 'a\u0000b', '']) {
      expect(() => resolveInsideRoot(root, path)).toThrow(MemoryScopeViolationError);
    }
    expect(resolveInsideRoot(root, 'companies/acme/_company/2026.md')).toBe(join(root, 'companies/acme/_company/2026.md'));
  });
});
