import type { MemoryScope, MemorySnippet, MemorySourceKind, MemorySourceRef } from '@memplane/core';
import { expectDeepEqual, expectEqual, expectMarkerFound, expectTrue } from '../assertions';
import type { ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';
import { summaryRules } from './provenance-summary-rules';

/** Caller metadata with every JSON shape that a lossy store tends to break. */
export function richMetadata(marker: string): Record<string, unknown> {
  return {
    marker,
    nested: { level1: { level2: { level3: ['deep', 1, true, null] } } },
    list: [1, 'two', { three: 3 }, [4, [5]], null, false],
    unicode: 'Grüße, 你好, مرحبا, 👩‍💻, e\u0301',
    'ключ 🔑': 'a unicode key',
    integer: 42,
    negative: -17,
    float: 3.14159,
    tiny: 1e-7,
    largest: Number.MAX_SAFE_INTEGER,
    zero: 0,
    yes: true,
    no: false,
    nothing: null,
    emptyText: '',
    emptyObject: {},
    emptyList: [],
  };
}

/** A source ref with every optional field set. */
function fullSource(context: RuleContext, scope: MemoryScope): MemorySourceRef {
  return context.source(scope, {
    kind: 'external_document',
    issueId: context.uniqueValue('issue'),
    commentId: context.uniqueValue('comment'),
    documentKey: 'plan/ünïcode.md',
    runId: context.uniqueValue('run'),
    activityId: context.uniqueValue('activity'),
    externalRef: 'https://docs.example.com/a/b?c=1&d=ü#section-2',
  });
}

function expectProvenance(snippet: MemorySnippet, source: MemorySourceRef, metadata: Record<string, unknown>, where: string): void {
  expectDeepEqual(snippet.source, source, `the source ref returned by ${where}`);
  expectDeepEqual(snippet.metadata, metadata, `the metadata returned by ${where}`);
}

type Read = 'get' | 'list' | 'query';

function roundTripRule(read: Read): ConformanceRule {
  return {
    id: `provenance.round-trip.${read}`,
    family: 'provenance',
    description: `${read} returns the written source ref and caller metadata unchanged (deep equal), including nesting, unicode, numbers, booleans and null.`,
    async run(context) {
      const scope = context.scope({ agentId: context.ids.agentId });
      const marker = context.marker(read);
      const source = fullSource(context, scope);
      const metadata = richMetadata(marker);
      const handle = await context.writeMarkedRecord(scope, marker, { source, metadata });
      let snippet: MemorySnippet | null;
      if (read === 'get') snippet = await context.adapter.get(handle, scope);
      else if (read === 'list') snippet = expectMarkerFound(await context.listAll(scope), marker, 'list');
      else snippet = expectMarkerFound((await context.queryByMarker(scope, marker)).all, marker, 'query');
      expectTrue(snippet !== null, `Expected get to return the record marked ${marker}, but it returned null.`);
      expectEqual(snippet.text, markedText(marker), `the text returned by ${read}`);
      expectProvenance(snippet, source, metadata, read);
    },
  };
}

const sourceFieldsByKind: Record<MemorySourceKind, Partial<MemorySourceRef>> = {
  issue_comment: { issueId: 'issue-1', commentId: 'comment-1' },
  issue_document: { issueId: 'issue-1', documentKey: 'docs/plan.md' },
  issue: { issueId: 'issue-1' },
  run: { runId: 'run-1', issueId: 'issue-1' },
  activity: { activityId: 'activity-1' },
  manual_note: {},
  external_document: { externalRef: 'https://example.com/handbook' },
};

/** The `provenance` family: where a memory came from, what the caller attached and its summary survive storage and correction. */
export const provenanceRules: ConformanceRule[] = [
  roundTripRule('get'),
  roundTripRule('list'),
  roundTripRule('query'),
  {
    id: 'provenance.text',
    family: 'provenance',
    description: 'get returns multi-line unicode record text exactly as written.',
    async run(context) {
      const scope = context.scope();
      const text = `${markedText(context.marker('text'))}\nSecond line: Grüße 你好 👩‍💻 — "quoted" and 'single' <tags> & tabs\tend.`;
      const [handle] = await context.writeRecords(scope, [text]);
      const snippet = handle === undefined ? null : await context.adapter.get(handle, scope);
      expectEqual(snippet?.text, text, 'the text returned by get');
    },
  },
  {
    id: 'provenance.capture-record',
    family: 'provenance',
    description: 'A capture in capture_record mode keeps its source ref and caller metadata on get and list.',
    async run(context) {
      const scope = context.scope({ runId: context.uniqueValue('run') });
      const marker = context.marker('capture');
      const source = context.source(scope, { kind: 'run', runId: context.uniqueValue('run'), issueId: context.uniqueValue('issue') });
      const metadata = richMetadata(marker);
      const { result } = await context.captureAndSettle({ scope, source, metadata, payload: { text: markedText(marker) }, mode: 'capture_record' });
      const listed = expectMarkerFound(await context.listAll(scope), marker, 'list after capture_record');
      expectProvenance(listed, source, metadata, 'list after capture_record');
      for (const handle of result.records ?? []) {
        const snippet = await context.adapter.get(handle, scope);
        expectTrue(snippet !== null, `Expected get of the handle returned by capture_record to find the record, but it returned null.`);
        expectProvenance(snippet, source, metadata, 'get after capture_record');
      }
    },
  },
  {
    id: 'provenance.source-kinds',
    family: 'provenance',
    description: 'Every source kind, with the fields that kind uses, comes back unchanged on list.',
    async run(context) {
      const scope = context.scope();
      const expected = new Map<string, MemorySourceRef>();
      for (const [kind, fields] of Object.entries(sourceFieldsByKind)) {
        const marker = context.marker(kind);
        const source: MemorySourceRef = { ...fields, kind: kind as MemorySourceKind, companyId: scope.companyId };
        await context.writeMarkedRecord(scope, marker, { source });
        expected.set(marker, source);
      }
      const listed = await context.listAll(scope);
      for (const [marker, source] of expected) {
        expectDeepEqual(expectMarkerFound(listed, marker, 'list').source, source, `the ${source.kind} source ref returned by list`);
      }
    },
  },
  ...summaryRules,
];
