import { describe, expect, it } from 'vitest';
import { brokenVariants } from './__fixtures__/broken-adapters/index';
import { referenceOptions } from './__fixtures__/broken-adapters/reference-options';
import { ruleFamilies } from './conformance-rule';
import { runConformance } from './run-conformance';
import { allRules } from './rules/index';

describe('the suite passes the reference adapter', () => {
  it('fails no rule of @memplane/memory, and skips only the declared-off surfaces it supports, each with a reason', async () => {
    const report = await runConformance(referenceOptions('@memplane/memory'));
    const failures = report.results.filter((result) => result.status === 'failed').map((result) => `${result.id}: ${result.error}`);
    expect(failures).toEqual([]);
    expect(report.results).toHaveLength(allRules.length);
    expect(report.passed + report.skipped).toBe(allRules.length);
    for (const skipped of report.results.filter((result) => result.status === 'skipped')) {
      expect(skipped.id).toMatch(/^capabilities\.[A-Za-z]+\.declared-off$/);
      expect(skipped.reason).toMatch(/declares capabilities\./);
    }
  });
});

describe('the suite fails broken variants of the reference adapter', () => {
  it('has a broken variant for every rule family', () => {
    expect(new Set(brokenVariants.map((variant) => variant.family))).toEqual(new Set(ruleFamilies));
  });

  for (const variant of brokenVariants) {
    it(`${variant.name}: fails the ${variant.family} rules that target the planted bug, naming each`, async () => {
      const report = await runConformance(referenceOptions(variant.name, variant.breaker));
      const failed = report.results.filter((result) => result.status === 'failed');
      const failedIds = failed.map((result) => result.id);
      expect(failedIds).toEqual(expect.arrayContaining(variant.mustFail));
      for (const id of variant.mustFail) expect(id.startsWith(`${variant.family}.`)).toBe(true);
      for (const result of failed) {
        expect(result.error, `${result.id} must say why it failed`).toMatch(/\S/);
      }
      expect(report.failed).toBe(failed.length);
    });
  }
});
