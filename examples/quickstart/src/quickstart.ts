/**
 * memplane in five minutes, with the in-memory reference adapter: every adapter has the
 * same calls, so swapping `createMemoryAdapter()` for a hosted provider's factory is the
 * only change needed to run this against real memory.
 */
import type { MemoryScope, MemorySnippet, MemorySourceRef } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';

const memory = createMemoryAdapter();

// Every call names the binding it was resolved through and the scope it works in.
// Records never cross companyId; the other scope fields narrow what a request sees.
const bindingKey = 'quickstart';
const scope: MemoryScope = { companyId: 'acme', agentId: 'release-planner' };

// Where the records came from. It is stored with each record and returned unchanged.
const source: MemorySourceRef = { kind: 'issue_comment', companyId: 'acme', issueId: 'OPS-42', commentId: 'comment-7' };

function describeSnippet(snippet: MemorySnippet): string {
  const score = snippet.score === undefined ? '' : ` (score ${snippet.score.toFixed(3)})`;
  const from = snippet.source === undefined ? '' : ` from ${snippet.source.kind} ${snippet.source.issueId ?? ''}`;
  return `${snippet.text}${score}${from} ${JSON.stringify(snippet.metadata ?? {})}`;
}

// 1. Write two curated records.
const written = await memory.upsertRecords({
  bindingKey,
  scope,
  source,
  records: [
    { text: 'Production deploys happen on Tuesdays after the 10:00 stand-up.', metadata: { topic: 'deploys', confidence: 'high' } },
    { text: 'The staging database is reset every Friday night.', metadata: { topic: 'environments' } },
  ],
});
console.log('Wrote', written.records?.map((handle) => handle.providerRecordId));

// 2. Ask for what is relevant.
const bundle = await memory.query({ bindingKey, scope, query: 'When do production deploys happen?', topK: 3 });
console.log('\nQuery results:');
for (const snippet of bundle.snippets) console.log(' -', describeSnippet(snippet));
console.log('Query usage:', bundle.usage);

// 3. Browse the scope page by page. The cursor is opaque and only valid for the same scope and filter.
console.log('\nListing, one record per page:');
let cursor: string | undefined;
let pageNumber = 0;
do {
  const page = await memory.list({ bindingKey, scope, limit: 1, cursor });
  pageNumber += 1;
  for (const item of page.items) console.log(` page ${pageNumber}:`, describeSnippet(item));
  cursor = page.nextCursor;
} while (cursor !== undefined);

// 4. Correct a record. Check the capability first: not every provider can.
const [deploys] = written.records ?? [];
if (deploys !== undefined && memory.capabilities.correction === true) {
  const corrected = await memory.correct(
    deploys,
    { text: 'Production deploys moved to Wednesdays after the 10:00 stand-up.', reason: 'Changed in the Q3 planning.' },
    scope,
  );
  console.log('\nCorrected:', corrected.record.providerRecordId, 'supersedes', corrected.supersedes?.providerRecordId ?? 'nothing');
  const current = await memory.get(corrected.record, scope);
  console.log('Now reads:', current === null ? 'nothing' : describeSnippet(current));

  // 5. Forget it. Reading it again gives null, and forgetting twice is harmless.
  await memory.forget([corrected.record], scope);
  console.log('\nAfter forget, get returns:', await memory.get(corrected.record, scope));
}

// Another company sees nothing, whatever it asks.
const otherCompany = await memory.query({ bindingKey, scope: { companyId: 'globex' }, query: 'deploys' });
console.log('Another company finds', otherCompany.snippets.length, 'records.');
