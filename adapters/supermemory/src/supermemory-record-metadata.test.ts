import type { MemoryWarning } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import {
  decodeRecordMetadata,
  encodeRecordMetadata,
  hasPostOnlyConditions,
  matchesMetadataFilter,
  metadataFilterToConditions,
} from './supermemory-record-metadata';

const source = { kind: 'issue_comment' as const, companyId: 'acme', issueId: 'ISS-1', commentId: 'c-9' };
const callerMetadata = { kind: 'fact', confidence: 0.9, pinned: true, tags: ['a', 'b'], nested: { deep: [1, { x: null }] }, 'odd key!': 'v' };

describe('record metadata', () => {
  it('stores scope, provenance and caller metadata as flat values Supermemory accepts, and reads them back unchanged', () => {
    const encoded = encodeRecordMetadata({
      scope: { companyId: 'acme', agentId: 'planner', projectId: 'p1' },
      recordKey: 'k1',
      origin: 'record',
      source,
      metadata: callerMetadata,
      summary: 'short',
    });
    for (const [key, value] of Object.entries(encoded)) {
      expect(key).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      expect(['string', 'number', 'boolean']).toContain(typeof value);
    }
    expect(encoded).toMatchObject({ mp_companyId: 'acme', mp_agentId: 'planner', mp_projectId: 'p1', mpf_kind: 'fact', mpf_confidence: 0.9, mpf_pinned: true });
    expect(encoded).not.toHaveProperty('mpf_tags');
    expect(encoded).not.toHaveProperty('mpf_odd key!');
    const warnings: MemoryWarning[] = [];
    const decoded = decodeRecordMetadata(JSON.parse(JSON.stringify(encoded)) as Record<string, unknown>, warnings);
    expect(decoded).toMatchObject({
      scope: { companyId: 'acme', agentId: 'planner', projectId: 'p1' },
      recordKey: 'k1',
      origin: 'record',
      source,
      metadata: callerMetadata,
      summary: 'short',
    });
    expect(warnings).toEqual([]);
  });

  it('reports a stored JSON copy that no longer parses as a compatibility warning and leaves it out', () => {
    const warnings: MemoryWarning[] = [];
    const decoded = decodeRecordMetadata({ mp_companyId: 'acme', mp_source: '{broken', mp_metadata: '[1]' }, warnings);
    expect(decoded.source).toBeUndefined();
    expect(decoded.metadata).toBeUndefined();
    expect(warnings.map((warning) => warning.type === 'compatibility' && warning.feature)).toEqual(['source', 'metadata']);
  });

  it('has no scope without a company marker, so such a record can never pass a scope check', () => {
    expect(decodeRecordMetadata({ mp_agentId: 'planner' }, []).scope).toBeUndefined();
    expect(decodeRecordMetadata(null, []).scope).toBeUndefined();
  });

  it('sends scalar filter values to Supermemory and keeps the exact check for after retrieval', () => {
    expect(metadataFilterToConditions({ kind: 'fact', count: 2, on: false, tags: ['a'], 'odd key': 'x' })).toEqual([
      { key: 'mpf_kind', value: 'fact' },
      { key: 'mpf_count', value: '2' },
      { key: 'mpf_on', value: 'false' },
    ]);
    expect(hasPostOnlyConditions({ kind: 'fact' })).toBe(false);
    expect(hasPostOnlyConditions({ tags: ['a'] })).toBe(true);
    expect(hasPostOnlyConditions({ 'odd key': 'x' })).toBe(true);
    expect(matchesMetadataFilter({ count: 2 }, { count: 2 })).toBe(true);
    expect(matchesMetadataFilter({ count: '2' }, { count: 2 })).toBe(false);
    expect(matchesMetadataFilter({ tags: ['a', 'b'] }, { tags: ['a', 'b'] })).toBe(true);
    expect(matchesMetadataFilter({ tags: ['a'] }, { tags: ['a', 'b'] })).toBe(false);
    expect(matchesMetadataFilter(undefined, { kind: 'fact' })).toBe(false);
    expect(matchesMetadataFilter(undefined, undefined)).toBe(true);
  });
});
