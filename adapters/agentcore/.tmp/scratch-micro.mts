import { createCursorCodec, memoryListPageSchema, parseProviderResult, memorySourceRefSchema } from '@memplane/core';
import { agentCoreRecordPageSchema } from '../src/agentcore-api-schemas';
import { readRecord } from '../src/agentcore-record-mapping';
import { encodeScope, toScopeMetadata } from '../src/agentcore-scope-mapping';
import { packProvenance, unpackProvenance } from '../src/agentcore-provenance';
const scope = { companyId: 'company-1', agentId: 'agent-1' };
const encoded = encodeScope(scope);
const source = { kind: 'issue_comment', companyId: 'company-1', issueId: 'i', commentId: 'c' };
const records = Array.from({ length: 50 }, (_, i) => ({
  memoryRecordId: `mem-${crypto.randomUUID()}`, content: { text: `Record ${i}: the deploy window is Tuesday at 14:00 UTC, after the release checklist.` },
  namespaces: ['/c/company-1/a/agent-1/'], createdAt: new Date(), metadata: { ...toScopeMetadata(encoded), ...packProvenance({ s: source, m: { kind: 'fact', tags: ['deploy', 'schedule'], confidence: 0.9, index: i } }, 9) },
}));
const output = { memoryRecordSummaries: records, nextToken: 'abc', $metadata: { httpStatusCode: 200 } };
function time(name: string, run: () => unknown, n = 2000) {
  for (let i = 0; i < 200; i++) run();
  const t = performance.now(); for (let i = 0; i < n; i++) run(); console.log(name.padEnd(40), ((performance.now() - t) * 1000 / n).toFixed(1), 'µs');
}
time('zod page schema (50)', () => parseProviderResult(agentCoreRecordPageSchema, output, 'x'));
const parsed = parseProviderResult(agentCoreRecordPageSchema, output, 'x');
time('readRecord x50', () => parsed.memoryRecordSummaries.map((r) => readRecord(r, { scope, encoded }, [])));
time('unpackProvenance x50', () => parsed.memoryRecordSummaries.map((r) => unpackProvenance(r.metadata)));
time('source safeParse x50', () => { for (let i = 0; i < 50; i++) memorySourceRefSchema.safeParse(source); });
const items = parsed.memoryRecordSummaries.map((r) => readRecord(r, { scope, encoded }, [])!);
time('core list page schema (50)', () => parseProviderResult(memoryListPageSchema, { items, usage: [{ provider: 'agentcore' }], warnings: [] }, 'x'));
const codec = createCursorCodec();
time('cursor encode', () => codec.encode({ nextToken: 'eyJhZnRlciI6NTB9' }, { scope, listing: 'records', filter: null }));
time('toISOString x50', () => { for (const r of parsed.memoryRecordSummaries) r.createdAt.toISOString(); });
import { toRecordHandle } from '../src/agentcore-handle';
import { storedScopeOfRecord } from '../src/agentcore-record-mapping';
import { findStoredScopeViolation, toSnippetScope } from '../src/agentcore-stored-scope';
const rs = parsed.memoryRecordSummaries;
time('toRecordHandle x50', () => { for (const r of rs) toRecordHandle(r.memoryRecordId); });
time('storedScopeOfRecord x50', () => { for (const r of rs) storedScopeOfRecord(r); });
const st = rs.map((r) => storedScopeOfRecord(r)!);
time('findStoredScopeViolation x50', () => { for (const s of st) findStoredScopeViolation(s, encoded); });
time('toSnippetScope x50', () => { for (const s of st) toSnippetScope(s, scope); });
time('Buffer base64 x50', () => { for (const r of rs) Buffer.from(r.metadata!['memplane.p0']!.stringValue!.slice(3), 'base64').toString('utf8'); });
const jsons = rs.map((r) => Buffer.from(r.metadata!['memplane.p0']!.stringValue!.slice(3), 'base64').toString('utf8'));
time('JSON.parse x50', () => { for (const j of jsons) JSON.parse(j); });
