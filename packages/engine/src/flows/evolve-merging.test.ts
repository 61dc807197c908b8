import { tokenize } from '@memplane/rules';
import { describe, expect, it } from 'vitest';
import type { ItemRow } from '../store/engine-store-rows';
import { findMergeGroups } from './evolve-merging';

let sequence = 0;
function item(text: string, overrides: Partial<ItemRow> = {}): ItemRow {
  sequence += 1;
  return {
    id: `item_${String(sequence).padStart(3, '0')}`, scope: { org: 'a' }, text, kind: 'fact', status: 'approved', piiRisk: 0, confidence: 0.8, stability: 0.7,
    version: 1, evidence: [], categoryKeys: [], metadata: {}, lexicalTokens: tokenize(text), textHash: text.toLowerCase(), useCount: 0,
    scopeSchemaHash: 'h', taxonomyVersion: 't', pipelineRevision: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...overrides,
  };
}

describe('findMergeGroups', () => {
  it('groups exact and near duplicates of one kind, never across kinds or with rejected items', () => {
    const a = item('The deploy window is Tuesday at noon.');
    const b = item('the deploy window is tuesday at noon.');
    const c = item('Deploy window: Tuesday at noon', { confidence: 0.95 });
    const otherKind = item('The deploy window is Tuesday at noon.', { kind: 'decision', textHash: 'x' });
    const rejected = item('The deploy window is Tuesday at noon!', { status: 'rejected', textHash: 'y' });
    const unrelated = item('Lunch is served at one.');
    const groups = findMergeGroups([a, b, c, otherKind, rejected, unrelated], { similarity: 0.6 });
    expect(groups).toHaveLength(1);
    expect(groups[0]?.survivor.id).toBe(c.id);
    expect(groups[0]?.merged.map((entry) => entry.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('merges by vector similarity when vectors are given', () => {
    const a = item('Our CI runs on GitHub Actions.');
    const b = item('Continuous integration happens in the hosted workflow service.');
    const vectors = new Map([[a.id, Float32Array.from([1, 0, 0.01])], [b.id, Float32Array.from([1, 0, 0])]]);
    expect(findMergeGroups([a, b], { similarity: 0.9 })).toEqual([]);
    expect(findMergeGroups([a, b], { similarity: 0.9, vectors, vectorSimilarity: 0.99 })[0]?.merged).toHaveLength(1);
  });

  it('skips tokens shared by very many items when proposing pairs, so work stays near linear', () => {
    const many = Array.from({ length: 200 }, (_, index) => item(`common words appear everywhere ${index} token${index}`));
    expect(findMergeGroups(many, { similarity: 0.85 })).toEqual([]);
  });
});
