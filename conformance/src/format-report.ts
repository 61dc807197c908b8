import type { ConformanceReport } from './run-conformance';

const maximumMessageLength = 600;

/** Squeezes a multi-line message onto one line, so every rule stays on one line of output. */
function oneLine(message: string): string {
  const squeezed = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  return squeezed.length > maximumMessageLength ? `${squeezed.slice(0, maximumMessageLength)}…` : squeezed;
}

/**
 * Formats a report as plain text: one line per rule (`PASS  <id>`, `FAIL  <id>: <message>`,
 * `SKIP  <id>: <reason>`), then the closing line `N passed, N failed, N skipped`.
 * The full messages stay in the report (`--json`).
 */
export function formatReport(report: ConformanceReport): string {
  const lines = report.results.map((result) => {
    if (result.status === 'passed') return `PASS  ${result.id}`;
    if (result.status === 'failed') return `FAIL  ${result.id}: ${oneLine(result.error ?? 'failed')}`;
    return `SKIP  ${result.id}: ${oneLine(result.reason ?? 'skipped')}`;
  });
  lines.push(`${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`);
  return `${lines.join('\n')}\n`;
}
