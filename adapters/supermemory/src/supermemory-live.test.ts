import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSupermemoryAdapter } from './supermemory-adapter';

/**
 * The live tier: the same adapter against the real Supermemory API. It runs only when
 * SUPERMEMORY_API_KEY is set (and SUPERMEMORY_BASE_URL, if given, picks the endpoint); without
 * it every test here is reported as skipped, with the reason in the suite title. It checks the
 * assumptions the msw fake makes where the docs are silent (README, "Known provider limits").
 */
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
});
