import type { MemoryRecordHandle, MemoryScope, MemorySnippet } from '@memplane/core';
import { expectDeepEqual, expectEqual, expectMarkerFound, expectTrue } from '../assertions';
import { whenDeclared, type ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';

/** A summary with unicode and punctuation, as a provider that trims or re-encodes it would break. */
function summaryOf(marker: string, version: string): string {
  return `Summary ${version} of ${marker}: the checklist — Grüße, 你好 & "quotes".`;
}

interface WrittenRecord {
  scope: MemoryScope;
  marker: string;
  handle: MemoryRecordHandle;
  text: string;
  summary: string;
  metadata: Record<string, unknown>;
}

/** Writes one record with text, summary and metadata under an agent of company A. */
async function writeSummarisedRecord(context: RuleContext, label: string): Promise<WrittenRecord> {
  const scope = context.scope({ agentId: context.ids.agentId });
  const marker = context.marker(label);
  const summary = summaryOf(marker, 'one');
  const metadata = { marker, kept: 1, changed: 'before', nested: { list: [1, 'two'] } };
  const handle = await context.writeMarkedRecord(scope, marker, { summary, metadata });
  return { scope, marker, handle, text: markedText(marker), summary, metadata };
}

/** Fails unless the snippet holds exactly the expected text, summary and caller metadata. */
function expectRecordFields(
  snippet: MemorySnippet | null,
  expected: { text: string; summary: string; metadata: Record<string, unknown> },
  where: string,
): void {
  expectTrue(snippet !== null, `Expected ${where} to find the record, but it returned null.`);
  expectEqual(snippet.summary, expected.summary, `the summary returned by ${where}`);
  expectEqual(snippet.text, expected.text, `the text returned by ${where}`);
  expectDeepEqual(snippet.metadata, expected.metadata, `the metadata returned by ${where}`);
}

function summaryRoundTripRule(read: 'get' | 'list'): ConformanceRule {
  return {
    id: `provenance.summary.${read}`,
    family: 'provenance',
    description: `A record upserted with a summary comes back from ${read} with that summary unchanged, beside its text and metadata.`,
    async run(context) {
      const written = await writeSummarisedRecord(context, `summary${read}`);
      const snippet =
        read === 'get'
          ? await context.adapter.get(written.handle, written.scope)
          : expectMarkerFound(await context.listAll(written.scope), written.marker, 'list');
      expectRecordFields(snippet, written, read);
    },
  };
}

/** The `provenance` rules of the summary: it survives an upsert, and `correct` patches exactly the fields it names. */
export const summaryRules: ConformanceRule[] = [
  summaryRoundTripRule('get'),
  summaryRoundTripRule('list'),
  {
    id: 'provenance.correct.summary-only',
    family: 'provenance',
    description: 'correct with only a summary changes the summary get returns and leaves the text and metadata as they were.',
    requires: whenDeclared('correction'),
    async run(context) {
      const written = await writeSummarisedRecord(context, 'correctsummary');
      const summary = summaryOf(written.marker, 'two');
      const result = await context.adapter.correct(written.handle, { summary }, written.scope);
      await context.waitForConsistency();
      const snippet = await context.adapter.get(result.record, written.scope);
      expectRecordFields(snippet, { ...written, summary }, 'get after correct with only a summary');
    },
  },
  {
    id: 'provenance.correct.metadata-only',
    family: 'provenance',
    description: 'correct with only metadata sets the patched keys, keeps the other keys, and leaves the text and summary as they were.',
    requires: whenDeclared('correction'),
    async run(context) {
      const written = await writeSummarisedRecord(context, 'correctmetadata');
      const result = await context.adapter.correct(written.handle, { metadata: { changed: 'after', added: true } }, written.scope);
      await context.waitForConsistency();
      const snippet = await context.adapter.get(result.record, written.scope);
      expectRecordFields(
        snippet,
        { ...written, metadata: { ...written.metadata, changed: 'after', added: true } },
        'get after correct with only metadata',
      );
    },
  },
];
