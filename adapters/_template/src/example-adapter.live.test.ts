import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createExampleAdapter } from './example-adapter';

const apiKey = process.env.EXAMPLE_API_KEY;

// Runs against the real Example API only when EXAMPLE_API_KEY is set (see .env.example);
// otherwise it is reported as skipped, never silently passed.
describe.skipIf(apiKey === undefined || apiKey === '')('Example API (live)', () => {
  it('writes, reads, lists, queries and forgets a record in a fresh tenant', async () => {
    const adapter = createExampleAdapter({ baseURL: process.env.EXAMPLE_BASE_URL || undefined });
    const scope = { companyId: `memplane-live-${randomUUID()}`, agentId: 'live-test' };
    const marker = `marker${randomUUID().replaceAll('-', '')}`;
    const written = await adapter.upsertRecords({
      bindingKey: 'live',
      scope,
      records: [{ text: `Live record ${marker}.`, metadata: { marker } }],
    });
    const handles = written.records ?? [];
    try {
      expect(handles).toHaveLength(1);
      const [handle] = handles;
      if (handle === undefined) return;
      expect((await adapter.get(handle, scope))?.text).toBe(`Live record ${marker}.`);
      expect((await adapter.list({ bindingKey: 'live', scope })).items.map((item) => item.handle)).toContainEqual(
        handle,
      );
      const bundle = await adapter.query({ bindingKey: 'live', scope, query: marker });
      expect(bundle.snippets.map((snippet) => snippet.handle)).toContainEqual(handle);
    } finally {
      await adapter.forget(handles, scope);
    }
    expect(
      await adapter.get(handles[0] ?? { providerKey: 'example', providerRecordId: 'record:none' }, scope),
    ).toBeNull();
  }, 60_000);
});
