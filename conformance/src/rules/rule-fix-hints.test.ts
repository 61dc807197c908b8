import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anchorsOf } from '../../../scripts/docs-links';
import { adapterGuideLink, adapterGuideUrl } from '../conformance-rule';
import { allRules } from './index';
import { fixHintFor, withFixHints } from './rule-fix-hints';

const guide = readFileSync(new URL('../../../docs/writing-an-adapter.md', import.meta.url), 'utf8');

describe('the fix hints of the rules', () => {
  it('gives every rule a hint of its own words and a section of the adapter guide that exists', () => {
    const anchors = anchorsOf(guide);
    const missing = allRules.filter((rule) => rule.fix === undefined).map((rule) => rule.id);
    expect(missing).toEqual([]);
    const broken = allRules.filter((rule) => rule.fix !== undefined && !anchors.has(rule.fix.guideSection)).map((rule) => `${rule.id} -> #${rule.fix?.guideSection}`);
    expect(broken).toEqual([]);
    for (const rule of allRules) expect(rule.fix?.hint, rule.id).toMatch(/^[A-Z].{20,}\.$/);
  });

  it('points each group to the section that explains it', () => {
    const section = (id: string) => allRules.find((rule) => rule.id === id)?.fix?.guideSection;
    expect(section('pagination.walk-while-changing')).toBe('keyset-cursors');
    expect(section('provenance.summary.get')).toBe('store-records-whole');
    expect(section('provenance.correct.metadata-only')).toBe('corrections-patch-they-do-not-replace');
    expect(section('capabilities.correct.declared-on')).toBe('corrections-patch-they-do-not-replace');
    expect(section('scope.isolation.agentId.list')).toBe('3-map-the-scope-and-enforce-the-company-twice');
    expect(section('scope.isolation.agentId.get')).toBe('every-scope-field-on-every-call');
    expect(section('capabilities.listExtractionJobs.declared-on')).toBe('extraction-jobs');
    expect(section('capabilities.explain.declared-off')).toBe('declare-capabilities-honestly');
  });

  it('links into the guide on GitHub, and keeps the fix a rule of your own brings', () => {
    expect(adapterGuideLink('keyset-cursors')).toBe(`${adapterGuideUrl}#keyset-cursors`);
    expect(adapterGuideUrl).toMatch(/^https:\/\/github\.com\/memplane\/memplane\/blob\/main\/docs\/writing-an-adapter\.md$/);
    const own = { id: 'pagination.mine', family: 'pagination' as const, description: 'Mine.', fix: { hint: 'Do it my way.', guideSection: 'keyset-cursors' }, run: async () => undefined };
    expect(withFixHints([own])[0]?.fix?.hint).toBe('Do it my way.');
    expect(fixHintFor('nothing.like.this')).toBeUndefined();
  });
});
