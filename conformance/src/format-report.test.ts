import { describe, expect, it } from 'vitest';
import { formatReport } from './format-report';
import type { ConformanceReport, ConformanceRuleResult } from './run-conformance';

function reportOf(results: ConformanceRuleResult[]): ConformanceReport {
  const count = (status: ConformanceRuleResult['status']) => results.filter((result) => result.status === status).length;
  return { name: 'sample', suiteVersion: '0.1.0', startedAt: '2026-01-01T00:00:00.000Z', nodeVersion: 'v20.19.0', results, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

describe('formatReport', () => {
  it('prints one line per rule, the description and fix hint under a failure, and the closing count line', () => {
    const report = reportOf([
      { id: 'scope.a', family: 'scope', description: 'a', status: 'passed', durationMs: 1 },
      {
        id: 'pagination.walk-while-changing',
        family: 'pagination',
        description: 'Records added and forgotten during a walk are seen once.',
        status: 'failed',
        error: 'Expected one thing,\n  but got\n\nanother.',
        fix: { hint: 'Page by a stable key, not an offset.', guide: 'https://example.com/guide.md#keyset-cursors' },
        durationMs: 2,
      },
      { id: 'errors.c', family: 'errors', description: 'c', status: 'skipped', reason: 'skipped by options.skip["errors"]: no fake', durationMs: 0 },
    ]);
    expect(formatReport(report)).toBe(
      [
        'PASS  scope.a',
        'FAIL  pagination.walk-while-changing: Expected one thing, but got another.',
        '      Checks: Records added and forgotten during a walk are seen once.',
        '      Fix: Page by a stable key, not an offset. See https://example.com/guide.md#keyset-cursors',
        'SKIP  errors.c: skipped by options.skip["errors"]: no fake',
        '1 passed, 1 failed, 1 skipped',
        '',
      ].join('\n'),
    );
  });

  it('prints the description of a failing rule that has no fix hint (a rule of your own), and no Fix line', () => {
    const text = formatReport(reportOf([{ id: 'custom.rule', family: 'scope', description: 'My own check.', status: 'failed', error: 'Nope.', durationMs: 1 }]));
    expect(text).toBe('FAIL  custom.rule: Nope.\n      Checks: My own check.\n0 passed, 1 failed, 0 skipped\n');
  });

  it('never cuts a long message, so the JSON of a record in it stays whole', () => {
    const record = { handle: { providerKey: 'memory', providerRecordId: 'r1' }, text: 'word '.repeat(400).trim(), scope: { companyId: 'c', agentId: 'a' } };
    const error = `Expected nothing, but got ${JSON.stringify(record)}.`;
    const [line] = formatReport(reportOf([{ id: 'scope.x', family: 'scope', description: 'd.', status: 'failed', error, durationMs: 1 }])).split('\n');
    expect(line).toBe(`FAIL  scope.x: ${error}`);
    expect(JSON.parse(line?.slice(line.indexOf('{'), line.lastIndexOf('}') + 1) ?? '')).toEqual(record);
  });
});
