import { describe, expect, it } from 'vitest';
import { metadataTextPattern } from './testing/agentcore-fake-validation';
import { maximumMetadataValueLength, packProvenance, packProvenanceWithinLimit, provenanceChunkKey, unpackProvenance } from './agentcore-provenance';
import type { MemoryWarning } from '@memplane/core';

const source = { kind: 'issue_comment', companyId: 'acme', issueId: 'issue-1', commentId: 'comment-1' };
const metadata = { nested: { list: [1, 'two', null, true] }, unicode: 'Grüße 👩‍💻', 'ключ 🔑': 'value', empty: {} };

function expectValidValues(packed: Record<string, { stringValue: string }>): void {
  for (const { stringValue } of Object.values(packed)) {
    expect(stringValue.length).toBeGreaterThanOrEqual(1);
    expect(stringValue.length).toBeLessThanOrEqual(maximumMetadataValueLength);
    expect(stringValue).toMatch(metadataTextPattern);
  }
}

describe('provenance packing', () => {
  it('round-trips source, metadata and summary through metadata values AgentCore accepts', () => {
    const packed = packProvenance({ s: source, m: metadata, y: 'a summary' }, 9);
    expect(packed).toBeDefined();
    expectValidValues(packed ?? {});
    expect(unpackProvenance(packed)).toEqual({ s: source, m: metadata, y: 'a summary' });
  });

  it('spreads large provenance over several chunks and deflates it when plain base64 does not fit', () => {
    const large = { s: source, m: { text: 'repeat '.repeat(400) } };
    const plain = packProvenance(large, 9);
    expect(plain?.[provenanceChunkKey(0)]?.stringValue.startsWith('z')).toBe(true);
    expect(unpackProvenance(plain)).toEqual(large);
    const medium = { s: source, m: { words: Array.from({ length: 30 }, (_, index) => `word${index}`) } };
    const chunks = packProvenance(medium, 9) ?? {};
    expect(Object.keys(chunks).length).toBeGreaterThan(1);
    expect(chunks[provenanceChunkKey(0)]?.stringValue.startsWith(`j${Object.keys(chunks).length}.`)).toBe(true);
    expectValidValues(chunks);
    expect(unpackProvenance(chunks)).toEqual(medium);
  });

  it('ignores stale chunks of an earlier, longer version', () => {
    const long = packProvenance({ m: { words: Array.from({ length: 30 }, (_, index) => `word${index}`) } }, 9) ?? {};
    const short = packProvenance({ m: { kept: 1 } }, 9) ?? {};
    expect(unpackProvenance({ ...long, ...short })).toEqual({ m: { kept: 1 } });
  });

  it('drops what does not fit, most expendable first, and says so in a compatibility warning', () => {
    const random = Array.from({ length: 200 }, (_, index) => `${index}:${Math.sin(index).toString(36)}`).join(',');
    const warnings: MemoryWarning[] = [];
    const packed = packProvenanceWithinLimit({ s: source, m: { random }, y: 'summary' }, 2, 'records.0', warnings);
    expect(unpackProvenance(packed)).toEqual({ s: source });
    expect(warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'records.0.metadata' })]);
    const none: MemoryWarning[] = [];
    packProvenanceWithinLimit({ s: source, m: metadata }, 9, 'records.0', none);
    expect(none).toEqual([]);
  });

  it('reports damaged chunks as unreadable and records without provenance as none', () => {
    expect(unpackProvenance(undefined)).toBeUndefined();
    expect(unpackProvenance({ other: { stringValue: 'x' } })).toBeUndefined();
    expect(unpackProvenance({ [provenanceChunkKey(0)]: { stringValue: 'j2.e30=' } })).toBe('unreadable');
    expect(unpackProvenance({ [provenanceChunkKey(0)]: { stringValue: 'not-a-header' } })).toBe('unreadable');
    expect(unpackProvenance({ [provenanceChunkKey(0)]: { stringValue: 'j1.bm90IGpzb24=' } })).toBe('unreadable');
  });

  it('decodes plain chunks exactly as a Buffer round trip does, whatever the base64 spelling', () => {
    const reference = (data: string) => {
      try {
        const parsed = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown;
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : 'unreadable';
      } catch {
        return 'unreadable';
      }
    };
    const ascii = Buffer.from(JSON.stringify({ s: source, y: 'plain' })).toString('base64');
    const unicode = Buffer.from(JSON.stringify({ m: metadata })).toString('base64');
    const urlSafe = Buffer.from(JSON.stringify({ y: '???>>>~~~' })).toString('base64url');
    const spellings = [ascii, unicode, urlSafe, ascii.replace(/=+$/, ''), `${ascii.slice(0, 8)} ${ascii.slice(8)}`, `${ascii}!`, `${ascii}=`, 'e30', 'e30=x'];
    for (const data of spellings) {
      expect(unpackProvenance({ [provenanceChunkKey(0)]: { stringValue: `j1.${data}` } })).toEqual(reference(data));
    }
  });
});
