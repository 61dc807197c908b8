import { randomBytes } from 'node:crypto';
import { finalExtractionJobStatuses, type MemoryAdapter } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createSupermemoryAdapter } from './supermemory-adapter';

/**
 * The live tier: the same adapter against the real Supermemory API. It runs only when
 * SUPERMEMORY_API_KEY is set (and SUPERMEMORY_BASE_URL, if given, picks the endpoint); without
 * it every test here is reported as skipped, with the reason in the suite title. It checks the
 * assumptions the msw fake makes where the docs are silent (README, "Known provider limits"):
 * entries, capture and its extraction (placed through the document), correct, profile, and
 * forgetting a capture with what was extracted from it.
 */

/** Waits (by polling, never sleeping on a timer of the test's own) for a condition the service reaches asynchronously. */
async function eventually<Value>(read: () => Promise<Value>, done: (value: Value) => boolean, attempts = 60): Promise<Value> {
  let value = await read();
  for (let attempt = 1; attempt < attempts && !done(value); attempt += 1) value = await read();
  return value;
}
const apiKey = process.env.SUPERMEMORY_API_KEY;
const title = apiKey === undefined || apiKey.trim() === ''
  ? 'live Supermemory API (skipped: SUPERMEMORY_API_KEY is not set)'
  : 'live Supermemory API';

describe.skipIf(apiKey === undefined || apiKey.trim() === '')(title, () => {
  const token = randomBytes(6).toString('hex');
  const scope = { companyId: `memplane-live-${token}`, agentId: 'live-agent' };
  const bindingKey = 'live';
  const marker = `mplive${token}`;

  it('writes memory entries that search, the memory list (with metadata and filters) and get return with provenance, then forgets them', { timeout: 120_000 }, async () => {
    // Built inside the test: the suite body runs even when the suite is skipped.
    const adapter = createSupermemoryAdapter({ containerTagPrefix: 'mplive', timeoutMs: 60_000 });
    const source = { kind: 'manual_note' as const, companyId: scope.companyId };
    const written = await adapter.upsertRecords({ bindingKey, scope, source, records: [{ text: `The ${marker} project deploys on Fridays.`, metadata: { kind: 'fact', tags: ['live'] } }] });
    const [handle] = written.records ?? [];
    expect(handle?.providerRecordId).toMatch(/^mem:/);

    const listed = await adapter.list({ bindingKey, scope, metadataFilter: { kind: 'fact' } });
    expect(listed.items.map((item) => item.text)).toContain(`The ${marker} project deploys on Fridays.`);
    expect(listed.items[0]).toMatchObject({ source, metadata: { kind: 'fact', tags: ['live'] }, scope });
    expect(await adapter.get(handle!, scope)).toMatchObject({ source, scope });
    expect(await adapter.get(handle!, { companyId: `${scope.companyId}-other` })).toBeNull();

    const found = await adapter.query({ bindingKey, scope, query: `${marker} deploys` });
    expect(found.snippets.map((snippet) => snippet.handle.providerRecordId)).toContain(handle!.providerRecordId);

    await adapter.forget([handle!], scope);
    expect(await adapter.get(handle!, scope)).toBeNull();
    expect((await adapter.list({ bindingKey, scope })).items.map((item) => item.handle)).not.toContainEqual(handle);
  });

  it('captures residue, follows its extraction to succeeded, reads what was extracted in scope, and forgets it with the capture', { timeout: 600_000 }, async () => {
    const adapter: MemoryAdapter = createSupermemoryAdapter({ containerTagPrefix: 'mplive', timeoutMs: 60_000 });
    const source = { kind: 'issue_comment' as const, companyId: scope.companyId, issueId: 'LIVE-1' };
    const captured = await adapter.capture({ bindingKey, scope, source, payload: { text: `The ${marker} team drinks green tea and deploys on Tuesdays.` } });
    const [documentHandle] = captured.records ?? [];
    const [job] = captured.jobs ?? [];
    expect(documentHandle?.providerRecordId).toMatch(/^doc:/);
    const final = await eventually(() => adapter.getExtractionJob(job!.providerJobId, scope), (result) => result.job !== null && finalExtractionJobStatuses.includes(result.job.status));
    expect(final.job?.status).toBe('succeeded');
    const extracted = await eventually(() => adapter.list({ bindingKey, scope }), (page) => page.items.some((item) => item.handle.providerRecordId.startsWith('mem:') && item.source?.issueId === 'LIVE-1'));
    const derived = extracted.items.filter((item) => item.source?.issueId === 'LIVE-1');
    expect(derived.length).toBeGreaterThan(0);
    expect(derived[0]).toMatchObject({ scope, source });
    expect((await adapter.list({ bindingKey, scope: { companyId: `${scope.companyId}-other` } })).items).toEqual([]);

    await adapter.forget([documentHandle!], scope);
    expect(await adapter.get(documentHandle!, scope)).toBeNull();
    for (const item of derived) expect(await adapter.get(item.handle, scope)).toBeNull();
  });

  it('corrects an entry into a new version and reads the profile of the container', { timeout: 120_000 }, async () => {
    const adapter = createSupermemoryAdapter({ containerTagPrefix: 'mplive', timeoutMs: 60_000 });
    const written = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: `The ${marker} standup is at nine.` }] });
    const [handle] = written.records ?? [];
    const corrected = await adapter.correct(handle!, { text: `The ${marker} standup is at ten.`, reason: 'moved' }, scope);
    expect(corrected.supersedes).toEqual(handle);
    expect(await adapter.get(corrected.record, scope)).toMatchObject({ text: `The ${marker} standup is at ten.` });
    expect(await adapter.get(handle!, scope)).toMatchObject({ text: `The ${marker} standup is at ten.` });
    const profile = await adapter.profile(scope);
    expect(typeof profile.summary).toBe('string');
    await adapter.forget([corrected.record], scope);
  });
});
