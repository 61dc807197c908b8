import { describe, expect, it } from 'vitest';
import { MemoryInvalidResponseError } from '../errors/memory-simple-errors';
import type { MemoryAdapterCapabilities } from '../memory-adapter/v1/memory-adapter-v1-capabilities';
import type { MemoryContextBundle, MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import type { MemorySourceRef } from '../memory-adapter/v1/memory-adapter-v1-source';
import type { MemoryUsage } from '../memory-adapter/v1/memory-adapter-v1-usage';
import { defineMemoryAdapter } from './define-memory-adapter';
import type { MemoryAdapterImplementation } from './memory-adapter-implementation';

const key = 'leaky';
const requestScope: MemoryScope = { companyId: 'company-a', agentId: 'agent-1' };
const bindingKey = 'binding-1';

interface StoredRecord {
  id: string;
  text: string;
  scope: MemoryScope;
  source?: MemorySourceRef;
}

/**
 * A small in-memory provider that ignores the requested scope on every read, as a faulty
 * provider might, so what these tests see is the wrapper's own scope check.
 */
function createLeakyImplementation(capabilities: MemoryAdapterCapabilities = {}, usage?: MemoryUsage[]) {
  const records: StoredRecord[] = [];
  const toSnippet = (record: StoredRecord): MemorySnippet => ({
    handle: { providerKey: key, providerRecordId: record.id },
    text: record.text,
    scope: record.scope,
    source: record.source,
  });
  const implementation: MemoryAdapterImplementation = {
    key,
    capabilities,
    capture: async () => ({ usage }),
    upsertRecords: async (request) => {
      const handles = request.records.map((input) => {
        const stored: StoredRecord = { id: `record-${records.length + 1}`, text: input.text, scope: request.scope, source: request.source };
        records.push(stored);
        return { providerKey: key, providerRecordId: stored.id };
      });
      return { records: handles, usage };
    },
    query: async () => ({ snippets: records.map((record, index) => ({ ...toSnippet(record), score: 1 - index / 100 })), usage }),
    list: async () => ({ items: records.map(toSnippet), usage }),
    get: async (handle) => {
      const found = records.find((record) => record.id === handle.providerRecordId);
      return found === undefined ? null : toSnippet(found);
    },
    forget: async () => ({ usage }),
    profile: async () => ({ summary: 'likes tea', items: records.map(toSnippet), usage }),
  };
  return { implementation, records, adapter: defineMemoryAdapter(implementation) };
}

/** Writes one record under `scope` through the adapter and returns its id. */
async function write(adapter: ReturnType<typeof createLeakyImplementation>['adapter'], text: string, scope: MemoryScope) {
  const result = await adapter.upsertRecords({ bindingKey, scope, records: [{ text }] });
  return result.records?.[0]?.providerRecordId ?? '';
}

describe('defineMemoryAdapter: results', () => {
  it('drops query results outside the requested scope and warns about each', async () => {
    const { adapter } = createLeakyImplementation();
    const mine = await write(adapter, 'agent 1 likes tea', requestScope);
    const otherAgent = await write(adapter, 'agent 2 likes coffee', { companyId: 'company-a', agentId: 'agent-2' });
    const otherCompany = await write(adapter, 'company b secret', { companyId: 'company-b', agentId: 'agent-1' });

    const bundle = await adapter.query({ bindingKey, scope: requestScope, query: 'likes' });

    expect(bundle.snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual([mine]);
    expect(bundle.warnings).toEqual([
      { type: 'scope_violation', providerRecordId: otherAgent, details: 'its scope does not match the requested scope' },
      { type: 'scope_violation', providerRecordId: otherCompany, details: 'its scope does not match the requested scope' },
    ]);
  });

  it('drops a record whose source belongs to another company', async () => {
    const { adapter, records } = createLeakyImplementation();
    records.push({ id: 'planted', text: 'from elsewhere', scope: requestScope, source: { kind: 'manual_note', companyId: 'company-b' } });
    const page = await adapter.list({ bindingKey, scope: requestScope });
    expect(page.items).toEqual([]);
    expect(page.warnings).toEqual([
      { type: 'scope_violation', providerRecordId: 'planted', details: 'its source belongs to another company' },
    ]);
  });

  it('drops list items outside the requested scope', async () => {
    const { adapter } = createLeakyImplementation();
    const mine = await write(adapter, 'agent 1 note', requestScope);
    const broader = await write(adapter, 'company-wide note', { companyId: 'company-a' });
    const page = await adapter.list({ bindingKey, scope: requestScope });
    // A record without the agent is not visible to a request that asks for the agent.
    expect(page.items.map((item) => item.handle.providerRecordId)).toEqual([mine]);
    expect(page.warnings?.map((warning) => warning.type === 'scope_violation' && warning.providerRecordId)).toEqual([broader]);
  });

  it('answers get with null for a record outside the requested scope', async () => {
    const { adapter } = createLeakyImplementation();
    const otherCompany = await write(adapter, 'company b secret', { companyId: 'company-b' });
    const mine = await write(adapter, 'agent 1 likes tea', requestScope);
    await expect(adapter.get({ providerKey: key, providerRecordId: otherCompany }, requestScope)).resolves.toBeNull();
    await expect(adapter.get({ providerKey: key, providerRecordId: mine }, requestScope)).resolves.toMatchObject({
      text: 'agent 1 likes tea',
    });
  });

  it('drops profile items outside the requested scope', async () => {
    const { adapter } = createLeakyImplementation({ profile: true });
    const mine = await write(adapter, 'agent 1 likes tea', requestScope);
    const otherCompany = await write(adapter, 'company b secret', { companyId: 'company-b' });
    const profile = await adapter.profile(requestScope);
    expect(profile.items?.map((item) => item.handle.providerRecordId)).toEqual([mine]);
    expect(profile.warnings).toEqual([
      { type: 'scope_violation', providerRecordId: otherCompany, details: 'its scope does not match the requested scope' },
    ]);
  });

  it('returns at most topK snippets, counted after the out-of-scope ones are dropped', async () => {
    const { adapter } = createLeakyImplementation();
    await write(adapter, 'company b first', { companyId: 'company-b' });
    const first = await write(adapter, 'mine first', requestScope);
    const second = await write(adapter, 'mine second', requestScope);
    await write(adapter, 'mine third', requestScope);
    const bundle = await adapter.query({ bindingKey, scope: requestScope, query: 'mine', topK: 2 });
    expect(bundle.snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual([first, second]);
  });

  it('hands callers relevance in [0, 1] whatever the provider scored (a clamped BM25 of 9.24e-7, a raw 4.6), keeping the raw score', async () => {
    const raw = [4.6, 9.24e-7, 0.5];
    const adapter = defineMemoryAdapter({
      ...createLeakyImplementation().implementation,
      query: async () => ({ snippets: raw.map((score, index) => ({ handle: { providerKey: key, providerRecordId: `r${index}` }, text: `t${index}`, score })) }),
    });
    const bundle = await adapter.query({ bindingKey, scope: requestScope, query: 'anything' });
    expect(bundle.snippets.map((snippet) => snippet.rawScore)).toEqual(raw);
    expect(bundle.snippets.map((snippet) => snippet.score)).toEqual([1, 9.24e-7 / 4.6, 0.5 / 4.6]);
  });

  it('warns that a metadataFilter was ignored when the adapter cannot filter', async () => {
    const { adapter } = createLeakyImplementation();
    const expected = [{ type: 'unsupported', feature: 'metadataFilter', details: 'The filter was ignored.' }];
    const bundle = await adapter.query({ bindingKey, scope: requestScope, query: 'tea', metadataFilter: { topic: 'drinks' } });
    expect(bundle.warnings).toEqual(expected);
    const page = await adapter.list({ bindingKey, scope: requestScope, metadataFilter: { topic: 'drinks' } });
    expect(page.warnings).toEqual(expected);
  });

  it('does not warn about a metadataFilter when the adapter applies it, or when none was given', async () => {
    const filtering = createLeakyImplementation({ metadataFilter: true }).adapter;
    expect((await filtering.query({ bindingKey, scope: requestScope, query: 'tea', metadataFilter: { topic: 'drinks' } })).warnings).toEqual([]);
    const plain = createLeakyImplementation().adapter;
    expect((await plain.list({ bindingKey, scope: requestScope })).warnings).toEqual([]);
  });

  it('fills usage with the measured latency when the adapter reported none', async () => {
    const { adapter } = createLeakyImplementation();
    const result = await adapter.upsertRecords({ bindingKey, scope: requestScope, records: [{ text: 'likes tea' }] });
    expect(result.usage).toEqual([{ provider: key, latencyMs: expect.any(Number) }]);
    expect(result.usage?.[0]?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.warnings).toEqual([]);
  });

  it('keeps reported usage, adding only the latency', async () => {
    const reported: MemoryUsage[] = [{ provider: key, embeddingTokens: 12, raw: { tokens: 12 } }];
    const { adapter } = createLeakyImplementation({}, reported);
    const bundle = await adapter.query({ bindingKey, scope: requestScope, query: 'tea' });
    expect(bundle.usage).toEqual([{ provider: key, embeddingTokens: 12, raw: { tokens: 12 }, latencyMs: expect.any(Number) }]);
    expect(bundle.usage?.[0]?.inputTokens).toBeUndefined();
  });

  it('refuses malformed results, naming the bad field', async () => {
    const { implementation } = createLeakyImplementation({ profile: true });
    const malformed = defineMemoryAdapter({
      ...implementation,
      query: async () => ({ snippets: [{ handle: { providerKey: key, providerRecordId: 'r' }, text: 42 }] }) as unknown as MemoryContextBundle,
      list: async () => ({ items: 'none' }) as never,
      get: async () => ({ text: 'no handle' }) as never,
      upsertRecords: async () => ({ records: [{ providerKey: key }] }) as never,
      profile: async () => ({ items: [] }) as never,
    });
    const cases: Array<[Promise<unknown>, string]> = [
      [malformed.query({ bindingKey, scope: requestScope, query: 'tea' }), 'snippets.0.text'],
      [malformed.list({ bindingKey, scope: requestScope }), 'items'],
      [malformed.get({ providerKey: key, providerRecordId: 'r' }, requestScope), 'handle'],
      [malformed.upsertRecords({ bindingKey, scope: requestScope, records: [{ text: 'x' }] }), 'records.0.providerRecordId'],
      [malformed.profile(requestScope), 'summary'],
    ];
    for (const [call, field] of cases) {
      const error: unknown = await call.then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(MemoryInvalidResponseError);
      expect((error as MemoryInvalidResponseError).field).toBe(field);
      expect((error as MemoryInvalidResponseError).message).toContain(`Malformed ${key}`);
    }
  });

  it('refuses a usage entry with a negative counter', async () => {
    const { adapter } = createLeakyImplementation({}, [{ provider: key, inputTokens: -1 }]);
    await expect(adapter.capture({
      bindingKey,
      scope: requestScope,
      source: { kind: 'manual_note', companyId: 'company-a' },
      payload: { text: 'likes tea' },
    })).rejects.toMatchObject({ code: 'MEMORY_INVALID_RESPONSE', field: 'usage.0.inputTokens' });
  });
});
