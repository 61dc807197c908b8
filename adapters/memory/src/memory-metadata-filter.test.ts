import { describe, expect, it } from 'vitest';
import { matchesMetadataFilter } from './memory-metadata-filter';

describe('matchesMetadataFilter', () => {
  const metadata = { kind: 'preference', tags: ['ui', 'theme'], owner: { team: 'web', lead: 'ana' }, pinned: false };

  it('passes everything without a filter or with an empty one', () => {
    expect(matchesMetadataFilter(metadata, undefined)).toBe(true);
    expect(matchesMetadataFilter(undefined, undefined)).toBe(true);
    expect(matchesMetadataFilter(metadata, {})).toBe(true);
    expect(matchesMetadataFilter(undefined, {})).toBe(true);
  });

  it('needs every top-level key to be deep-equal', () => {
    expect(matchesMetadataFilter(metadata, { kind: 'preference' })).toBe(true);
    expect(matchesMetadataFilter(metadata, { kind: 'preference', pinned: false })).toBe(true);
    expect(matchesMetadataFilter(metadata, { tags: ['ui', 'theme'] })).toBe(true);
    expect(matchesMetadataFilter(metadata, { owner: { lead: 'ana', team: 'web' } })).toBe(true);
    expect(matchesMetadataFilter(metadata, { kind: 'goal' })).toBe(false);
    expect(matchesMetadataFilter(metadata, { kind: 'preference', pinned: true })).toBe(false);
  });

  it('does not match partially inside values', () => {
    expect(matchesMetadataFilter(metadata, { tags: ['ui'] })).toBe(false);
    expect(matchesMetadataFilter(metadata, { tags: ['theme', 'ui'] })).toBe(false);
    expect(matchesMetadataFilter(metadata, { owner: { team: 'web' } })).toBe(false);
  });

  it('treats a missing key as a mismatch, even for null', () => {
    expect(matchesMetadataFilter(metadata, { archived: null })).toBe(false);
    expect(matchesMetadataFilter({ archived: null }, { archived: null })).toBe(true);
    expect(matchesMetadataFilter(undefined, { kind: 'preference' })).toBe(false);
  });

  it('does not confuse inherited properties with metadata', () => {
    expect(matchesMetadataFilter({}, { toString: 'x' })).toBe(false);
  });
});
