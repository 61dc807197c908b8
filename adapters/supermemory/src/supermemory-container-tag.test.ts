import { describe, expect, it } from 'vitest';
import { containerTagPattern, toSupermemoryContainerTag } from './supermemory-container-tag';

describe('toSupermemoryContainerTag', () => {
  it('maps any company id into the charset and length every Supermemory endpoint accepts', () => {
    const ids = ['acme', 'ACME', 'a'.repeat(256), 'café/東京 #1', 'company:with:colons', 'dots.and spaces', '-_-'];
    for (const id of ids) {
      const tag = toSupermemoryContainerTag(id);
      expect(tag).toMatch(containerTagPattern);
      expect(tag).toHaveLength(46);
      expect(tag.startsWith('mp_')).toBe(true);
    }
  });

  it('is deterministic and gives different ids different tags, including ids an encoding would fold together', () => {
    expect(toSupermemoryContainerTag('acme')).toBe(toSupermemoryContainerTag('acme'));
    const lookAlikes = ['acme', 'Acme', 'acme ', 'acme_', 'acme-', 'ac/me', 'ac_me', 'ac-me', 'ac me', 'acme\u00a0'];
    expect(new Set(lookAlikes.map((id) => toSupermemoryContainerTag(id))).size).toBe(lookAlikes.length);
    const many = Array.from({ length: 5000 }, (_, index) => `company-${index}`);
    expect(new Set(many.map((id) => toSupermemoryContainerTag(id))).size).toBe(many.length);
  });

  it('keeps deployments apart by prefix', () => {
    expect(toSupermemoryContainerTag('acme', 'staging')).toMatch(/^staging_/);
    expect(toSupermemoryContainerTag('acme', 'staging')).not.toBe(toSupermemoryContainerTag('acme', 'production'));
    expect(toSupermemoryContainerTag('acme', 'a'.repeat(40))).toMatch(containerTagPattern);
  });
});
