import { describe, expect, it } from 'vitest';
import { forgetIgnoresAgent, getIgnoresAgent } from './__fixtures__/broken-adapters/handles-ignore-agent';
import { ignoresAgentOnListWrapped } from './__fixtures__/broken-adapters/ignores-agent-on-list';
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

describe('the suite checks what the adapter returned, not what defineMemoryAdapter repaired', () => {
  it('fails an adapter whose list ignores agentId even though the wrapper dropped the record, naming the rule, the scope and the record', async () => {
    const report = await runConformance({ ...referenceOptions('wrapped', ignoresAgentOnListWrapped), only: ['scope.isolation.agentId.list'] });
    const [result] = report.results;
    expect(result?.status).toBe('failed');
    expect(result?.error).toMatch(
      /^Rule scope\.isolation\.agentId\.list: list for scope \{"companyId":"[^"]+","agentId":"conformance-[^"]+-agentId-b"\} returned a record outside it \(its scope does not match the requested scope\): \{.*"agentId":"conformance-[^"]+-agentId-a".*\. defineMemoryAdapter dropped it/,
    );
  });

  it('fails an adapter whose get ignores agentId, although the wrapper turned its answer into null', async () => {
    const report = await runConformance({ ...referenceOptions('wrapped-get', getIgnoresAgent), only: ['scope.isolation.agentId.get'] });
    expect(report.results[0]?.error).toMatch(/^Rule scope\.isolation\.agentId\.get: get for scope \{"companyId":"[^"]+","agentId":"[^"]+-agentId-b"\} returned a record outside it .*defineMemoryAdapter dropped it/);
  });

  it('fails an adapter whose forget ignores agentId, naming what the agent still needed', async () => {
    const report = await runConformance({ ...referenceOptions('wrapped-forget', forgetIgnoresAgent), only: ['scope.isolation.agentId.forget'] });
    expect(report.results[0]?.error).toMatch(/^Expected the record written under agentId=\S+ to keep its text after a forget issued with agentId=/);
  });
});
