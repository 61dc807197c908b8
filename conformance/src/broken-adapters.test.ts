import { describe, expect, it } from 'vitest';
import { correctReplacesRecord } from './__fixtures__/broken-adapters/correct-replaces-record';
import { withoutAgent } from './__fixtures__/broken-adapters/define-broken-adapter';
import { dropsSummary } from './__fixtures__/broken-adapters/drops-summary';
import { forgetIgnoresAgent, getIgnoresAgent } from './__fixtures__/broken-adapters/handles-ignore-agent';
import { ignoresAgentOnListWrapped } from './__fixtures__/broken-adapters/ignores-agent-on-list';
import { brokenVariants } from './__fixtures__/broken-adapters/index';
import { losesProvenance } from './__fixtures__/broken-adapters/loses-provenance';
import { referenceOptions } from './__fixtures__/broken-adapters/reference-options';
import { wrapAdapter, type AdapterBreaker } from './__fixtures__/broken-adapters/wrap-adapter';
import { adapterGuideUrl, ruleFamilies } from './conformance-rule';
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
  it('fails an adapter whose list ignores agentId even though the wrapper dropped the record, naming the rule, the scope, the mismatched field with both values, and the record', async () => {
    const report = await runConformance({ ...referenceOptions('wrapped', ignoresAgentOnListWrapped), only: ['scope.isolation.agentId.list'] });
    const [result] = report.results;
    expect(result?.status).toBe('failed');
    expect(result?.error).toMatch(
      /^Rule scope\.isolation\.agentId\.list: list for scope \{"companyId":"[^"]+","agentId":"conformance-[^"]+-agentId-b"\} returned a record outside it \(its scope does not match the requested scope: agentId: requested "conformance-[^"]+-agentId-b", record has "conformance-[^"]+-agentId-a"\): \{.*"agentId":"conformance-[^"]+-agentId-a".*\. defineMemoryAdapter dropped it/,
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

/** Every JSON text in a message: each run from a `{` or `[` to its closing bracket, strings respected. */
function jsonTextsIn(message: string): string[] {
  const texts: string[] = [];
  let index = 0;
  while (index < message.length) {
    const start = message.slice(index).search(/[{[]/);
    if (start === -1) break;
    let depth = 0;
    let inString = false;
    let end = index + start;
    for (; end < message.length; end += 1) {
      const character = message[end];
      if (inString) {
        if (character === '\\') end += 1;
        else if (character === '"') inString = false;
      } else if (character === '"') inString = true;
      else if (character === '{' || character === '[') depth += 1;
      else if (character === '}' || character === ']') {
        depth -= 1;
        if (depth === 0) break;
      }
    }
    texts.push(message.slice(index + start, end + 1));
    index = end + 1;
  }
  return texts;
}

async function failureOf(name: string, breaker: AdapterBreaker, ruleId: string) {
  const report = await runConformance({ ...referenceOptions(name, breaker), only: [ruleId] });
  const result = report.results.find((candidate) => candidate.id === ruleId);
  expect(result?.status, `${ruleId} must fail`).toBe('failed');
  return { error: result?.error ?? '', fix: result?.fix, description: result?.description };
}

describe('failure messages say what is wrong and how to fix it', () => {
  it('drops-summary: names the summary with the value written and the value get returned, and links the guide section', async () => {
    const failure = await failureOf('drops-summary', dropsSummary, 'provenance.summary.get');
    expect(failure.error).toMatch(/^Expected the summary returned by get to be "Summary one of mk\w+: the checklist — Grüße, 你好 & \\"quotes\\".", but got undefined\.$/);
    expect(failure.fix).toEqual({ hint: expect.stringMatching(/summary/), guide: `${adapterGuideUrl}#store-records-whole` });
  });

  it('correct-replaces-record: a metadata-only correction names the summary it lost and the metadata keys it dropped', async () => {
    const summary = await failureOf('correct-replaces-record', correctReplacesRecord, 'provenance.correct.metadata-only');
    expect(summary.error).toMatch(/^Expected the summary returned by get after correct with only metadata to be "Summary one of mk\w+: .*", but got undefined\.$/);
    expect(summary.fix?.guide).toBe(`${adapterGuideUrl}#corrections-patch-they-do-not-replace`);
    const metadata = await failureOf('correct-replaces-record', correctReplacesRecord, 'provenance.correct.summary-only');
    expect(metadata.error).toMatch(/^Expected the metadata returned by get after correct with only a summary to equal \{.*\}, but got undefined\.$/);
  });

  it('loses-provenance: names each source field it lost, with the value written', async () => {
    const failure = await failureOf('loses-provenance', losesProvenance, 'provenance.round-trip.get');
    expect(failure.error).toMatch(/ Differs at issueId: expected "conformance-\w+-issue", got nothing; commentId: expected "conformance-\w+-comment", got nothing; documentKey: expected "plan\/ünïcode\.md", got nothing; /);
  });

  it('a leaked record with a long text and large metadata is shown as whole JSON values, with what was left out named and counted', async () => {
    const padded: AdapterBreaker = (inner) =>
      wrapAdapter(inner, {
        async list(request) {
          const page = await inner.list({ ...request, scope: withoutAgent(request.scope) });
          const items = page.items.map((item) => ({ ...item, text: `${item.text} ${'padding '.repeat(300)}`, metadata: { ...item.metadata, blob: 'b'.repeat(3000), small: 1 } }));
          return { ...page, items };
        },
      });
    const { error } = await failureOf('padded', padded, 'scope.isolation.agentId.list');
    expect(error).toMatch(/ returned a record outside it \(its scope does not match the requested scope: agentId: requested "conformance-\w+-agentId-b", record has "conformance-\w+-agentId-a"\): \{/);
    expect(error).not.toContain('b'.repeat(100));
    expect(error).not.toContain('padding padding padding');
    const texts = jsonTextsIn(error);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const text of texts) expect(() => JSON.parse(text), text).not.toThrow();
    const leaked = texts.map((text) => JSON.parse(text) as unknown).find((value): value is Record<string, unknown> => typeof value === 'object' && value !== null && 'handle' in value);
    expect(leaked?.scope).toEqual({ companyId: expect.any(String), agentId: expect.stringMatching(/-agentId-a$/) });
    expect(leaked?.['…']).toMatch(/^\d+ fields? left out: .*text/);
  });
});
