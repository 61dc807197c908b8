import { describe, expect, it } from 'vitest';
import { formatReport } from './format-report';
import type { ConformanceReport } from './run-conformance';

describe('formatReport', () => {
  it('prints one line per rule and the closing count line', () => {
    const report: ConformanceReport = {
      name: 'sample',
      suiteVersion: '0.1.0',
      startedAt: '2026-01-01T00:00:00.000Z',
      nodeVersion: 'v20.19.0',
      passed: 1,
      failed: 1,
      skipped: 1,
      results: [
        { id: 'scope.a', family: 'scope', description: 'a', status: 'passed', durationMs: 1 },
        { id: 'scope.b', family: 'scope', description: 'b', status: 'failed', error: 'Expected one thing,\n  but got\n\nanother.', durationMs: 2 },
        { id: 'errors.c', family: 'errors', description: 'c', status: 'skipped', reason: 'skipped by options.skip["errors"]: no fake', durationMs: 0 },
      ],
    };
    expect(formatReport(report)).toBe(
      [
        'PASS  scope.a',
        'FAIL  scope.b: Expected one thing, but got another.',
        'SKIP  errors.c: skipped by options.skip["errors"]: no fake',
        '1 passed, 1 failed, 1 skipped',
        '',
      ].join('\n'),
    );
  });

  it('cuts very long messages, keeping the line readable (the full text stays in the JSON report)', () => {
    const error = 'x'.repeat(5000);
    const line = formatReport({ name: 'n', suiteVersion: '0.1.0', startedAt: '2026-01-01T00:00:00.000Z', nodeVersion: 'v20.19.0', passed: 0, failed: 1, skipped: 0, results: [{ id: 'pagination.walk', family: 'pagination', description: 'd', status: 'failed', error, durationMs: 1 }] }).split('\n')[0] ?? '';
    expect(line.length).toBeLessThan(700);
    expect(line.endsWith('…')).toBe(true);
  });
});
