import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ruleFamilies } from './conformance-rule';
import { describeApplicability, renderRuleTable, replaceRuleTable } from './rule-table';
import { allRules, conformanceRuleIds } from './rules/index';

describe('the rule list', () => {
  it('has unique dotted ids that start with their family, and a sentence for each', () => {
    expect(new Set(conformanceRuleIds).size).toBe(conformanceRuleIds.length);
    for (const rule of allRules) {
      expect(rule.id).toMatch(/^[a-z]+(\.[A-Za-z0-9-]+)+$/);
      expect(rule.id.startsWith(`${rule.family}.`)).toBe(true);
      expect(ruleFamilies).toContain(rule.family);
      expect(rule.description).toMatch(/\.$/);
    }
  });

  it('reads back when a rule runs from its requires and needs', () => {
    const byId = new Map(allRules.map((rule) => [rule.id, rule]));
    const applicability = (id: string) => describeApplicability(byId.get(id) ?? allRules[0]!);
    expect(applicability('scope.isolation.companyId.query')).toBe('always');
    expect(applicability('capabilities.correct.declared-off')).toBe('`correction` off');
    expect(applicability('extraction.retry.succeeds')).toBe('`asyncExtraction` + `retryExtractionJob` + `faults`');
    expect(applicability('scope.peer.forget-is-shared')).toBe('`createPeerAdapter`');
  });

  it('is documented in full in the README (run `npx tsx scripts/print-rule-table.ts --write` after changing rules)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(replaceRuleTable(readme, renderRuleTable(allRules)));
    for (const id of conformanceRuleIds) expect(readme).toContain(`| \`${id}\` |`);
  });
});
