import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeXml, formatJunitReport } from './format-junit-report';
import type { ConformanceReport } from './run-conformance';

const report: ConformanceReport = {
  name: 'acme <adapter> & "friends"',
  suiteVersion: '0.2.0',
  startedAt: '2026-01-01T00:00:00.000Z',
  nodeVersion: 'v20.19.0',
  adapter: { key: 'acme', capabilities: { correction: true } },
  passed: 1,
  failed: 1,
  skipped: 1,
  results: [
    { id: 'scope.a', family: 'scope', description: 'a', status: 'passed', durationMs: 12 },
    { id: 'scope.b', family: 'scope', description: 'b', status: 'failed', error: 'Expected <none>,\nbut got "x" & ]]> \u0000\u001B[31m', fix: { hint: 'Keep <b> apart.', guide: 'https://example.com/guide#b' }, durationMs: 1500 },
    { id: 'errors.c', family: 'errors', description: 'c', status: 'skipped', reason: "the adapter's manifest", durationMs: 0 },
  ],
};

describe('formatJunitReport', () => {
  it('writes one testcase per rule, failures with the full message, the description and the fix hint, skips with the reason, and the run facts as properties', () => {
    expect(formatJunitReport(report)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="memplane conformance" tests="3" failures="1" errors="0" skipped="1" time="1.512">',
        '  <testsuite name="acme &lt;adapter&gt; &amp; &quot;friends&quot;" tests="3" failures="1" errors="0" skipped="1" time="1.512" timestamp="2026-01-01T00:00:00.000Z">',
        '    <properties>',
        '      <property name="memplane.conformance.version" value="0.2.0"/>',
        '      <property name="node.version" value="v20.19.0"/>',
        '      <property name="adapter.key" value="acme"/>',
        '      <property name="adapter.capabilities" value="{&quot;correction&quot;:true}"/>',
        '    </properties>',
        '    <testcase classname="scope" name="scope.a" time="0.012"/>',
        '    <testcase classname="scope" name="scope.b" time="1.500">',
        '      <failure message="Expected &lt;none&gt;," type="scope.b">Expected &lt;none&gt;,\nbut got &quot;x&quot; &amp; ]]&gt; \uFFFD\uFFFD[31m\n\nChecks: b\nFix: Keep &lt;b&gt; apart. See https://example.com/guide#b</failure>',
        '    </testcase>',
        '    <testcase classname="errors" name="errors.c" time="0.000">',
        '      <skipped message="the adapter&apos;s manifest"/>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('never lets a character XML cannot carry through, and keeps newlines out of attributes', () => {
    expect(escapeXml('a\nb\tc\rd\u0008e\uD800f\uFFFF')).toBe('a&#10;b&#9;c&#13;d\uFFFDe\uFFFDf\uFFFD');
    expect(escapeXml('\uD83D\uDE00')).toBe('\uD83D\uDE00');
  });

  it('escapes any string into text with no markup, no raw ampersand and no character XML refuses, and back (fast-check)', () => {
    const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#13': '\r', '#10': '\n', '#9': '\t' };
    const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|apos|#13|#10|#9);/g, (_, name: string) => entities[name] as string);
    // eslint-disable-next-line no-control-regex
    const refused = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeXml(text);
        expect(escaped).not.toMatch(/[<>"'\r\n\t]/);
        expect(escaped).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#13|#10|#9);)/);
        expect(escaped).not.toMatch(refused);
        expect(unescape(escaped)).toBe(text.replace(refused, '\uFFFD'));
      }),
      { numRuns: 500 },
    );
  });
});
