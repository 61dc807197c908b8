import type { ConformanceReport, ConformanceRuleResult } from './run-conformance';

/** Squeezes a multi-line message onto one line, so every entry of the report starts on a line of its own. */
function oneLine(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

/** The indent of the lines that follow a FAIL line, under the rule id. */
const detailIndent = '      ';

function failureLines(result: ConformanceRuleResult): string[] {
  const lines = [`FAIL  ${result.id}: ${oneLine(result.error ?? 'failed')}`, `${detailIndent}Checks: ${oneLine(result.description)}`];
  if (result.fix !== undefined) lines.push(`${detailIndent}Fix: ${oneLine(result.fix.hint)} See ${result.fix.guide}`);
  return lines;
}

/**
 * Formats a report as plain text: one line per rule (`PASS  <id>`, `FAIL  <id>: <message>`,
 * `SKIP  <id>: <reason>`), then the closing line `N passed, N failed, N skipped`. A failing rule
 * is followed by two indented lines: `Checks: <the rule's description>` and `Fix: <what to change>
 * See <the section of the adapter guide>`. Messages are shown whole: their JSON previews are
 * already bounded, and never cut inside a value.
 */
export function formatReport(report: ConformanceReport): string {
  const lines = report.results.flatMap((result) => {
    if (result.status === 'passed') return [`PASS  ${result.id}`];
    if (result.status === 'failed') return failureLines(result);
    return [`SKIP  ${result.id}: ${oneLine(result.reason ?? 'skipped')}`];
  });
  lines.push(`${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`);
  return `${lines.join('\n')}\n`;
}
