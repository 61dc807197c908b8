import type { ConformanceReport } from './run-conformance';

/**
 * Characters XML 1.0 cannot carry at all (C0 controls other than tab, newline and carriage
 * return, lone surrogates, U+FFFE and U+FFFF). They are replaced, so a hostile message from an
 * adapter cannot make the file unreadable for the CI system.
 */
// eslint-disable-next-line no-control-regex
const notXmlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an XML attribute value or element content. */
export function escapeXml(text: string): string {
  return text
    .replace(notXmlCharacter, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/** Escapes element content: newlines stay readable there. */
function escapeContent(text: string): string {
  return escapeXml(text).replace(/&#10;/g, '\n').replace(/&#9;/g, '\t');
}

const seconds = (milliseconds: number) => (milliseconds / 1000).toFixed(3);

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text;
}

/**
 * Formats a report as JUnit XML, the format CI systems read (GitHub Actions reporters, GitLab,
 * Jenkins, CircleCI): one `<testsuite>` named after the run, one `<testcase>` per rule with the
 * rule's family as `classname` and its id as `name`, `<failure>` with the full message, the rule's
 * description and its fix hint, and `<skipped>` with the reason. The suite version, the adapter key and capabilities and the Node.js
 * version are `<properties>`.
 */
export function formatJunitReport(report: ConformanceReport): string {
  const totalMs = report.results.reduce((sum, result) => sum + result.durationMs, 0);
  const properties: Array<[string, string]> = [
    ['memplane.conformance.version', report.suiteVersion],
    ['node.version', report.nodeVersion],
    ...(report.adapter === undefined
      ? []
      : ([
          ['adapter.key', report.adapter.key],
          ['adapter.capabilities', JSON.stringify(report.adapter.capabilities)],
        ] as Array<[string, string]>)),
  ];
  const counts = `tests="${report.results.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}" time="${seconds(totalMs)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="memplane conformance" ${counts}>`,
    `  <testsuite name="${escapeXml(report.name)}" ${counts} timestamp="${escapeXml(report.startedAt)}">`,
    '    <properties>',
    ...properties.map(([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`),
    '    </properties>',
  ];
  for (const result of report.results) {
    const open = `    <testcase classname="${escapeXml(result.family)}" name="${escapeXml(result.id)}" time="${seconds(result.durationMs)}"`;
    if (result.status === 'passed') {
      lines.push(`${open}/>`);
    } else if (result.status === 'skipped') {
      lines.push(`${open}>`, `      <skipped message="${escapeXml(result.reason ?? 'skipped')}"/>`, '    </testcase>');
    } else {
      const error = result.error ?? 'failed';
      const details = [error, '', `Checks: ${result.description}`, ...(result.fix === undefined ? [] : [`Fix: ${result.fix.hint} See ${result.fix.guide}`])].join('\n');
      lines.push(
        `${open}>`,
        `      <failure message="${escapeXml(firstLine(error))}" type="${escapeXml(result.id)}">${escapeContent(details)}</failure>`,
        '    </testcase>',
      );
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
