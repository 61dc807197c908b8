import { MemoryApiCallError, type MemoryAdapter, type MemoryRecordHandle, type MemoryScope } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { listedMemory } from './testing/mem0-fake-responses';
import { createTestAdapter } from './testing/mem0-test-support';

const newestFirst = createMem0Fake({ host: 'https://newest.mem0.test', listOrder: 'newest-first' });
const oldestFirst = createMem0Fake({ host: 'https://oldest.mem0.test', listOrder: 'oldest-first' });
const testServer = setupTestServer([...newestFirst.handlers, ...oldestFirst.handlers]);

async function writeEach(adapter: MemoryAdapter, scope: MemoryScope, count: number, label: string): Promise<MemoryRecordHandle[]> {
  const handles: MemoryRecordHandle[] = [];
  for (let index = 0; index < count; index += 1) {
    const result = await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: `${label} record ${index}` }] });
    handles.push(...(result.records ?? []));
  }
  return handles;
}

async function walk(adapter: MemoryAdapter, scope: MemoryScope, limit: number, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page += 1) {
    const result = await adapter.list({ bindingKey: 'b', scope, limit, ...(cursor === undefined ? {} : { cursor }) });
    expect(result.items.length).toBeLessThanOrEqual(limit);
    ids.push(...result.items.map((item) => item.handle.providerRecordId));
    cursor = result.nextCursor;
    if (cursor === undefined) return ids;
    await between?.(page);
  }
  throw new RangeError('the walk did not end');
}

describe.each([
  ['newest-first', newestFirst],
  ['oldest-first', oldestFirst],
])('list over a platform that lists %s', (order, fake) => {
  it('visits every record once, with separate timestamps and with one batch sharing a timestamp', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: `walk-${order}`, agentId: 'a' };
    const single = await writeEach(adapter, scope, 7, 'single');
    const batch = (await adapter.upsertRecords({ bindingKey: 'b', scope, records: Array.from({ length: 23 }, (_, index) => ({ text: `batch record ${index}` })) })).records ?? [];
    const ids = await walk(adapter, scope, 4);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(new Set(ids)).toEqual(new Set([...single, ...batch].map((handle) => handle.providerRecordId)));
  });

  it('neither skips nor repeats records when records are added and forgotten during the walk', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: `changing-${order}` };
    const stable = await writeEach(adapter, scope, 12, 'stable');
    const forgotten = new Set<string>();
    const ids = await walk(adapter, scope, 3, async (page) => {
      if (page > 1) return;
      const victims = stable.filter((handle) => !forgotten.has(handle.providerRecordId)).slice(page * 2, page * 2 + 2);
      await adapter.forget(victims, scope);
      for (const victim of victims) forgotten.add(victim.providerRecordId);
      await writeEach(adapter, scope, 2, `added-${page}`);
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const handle of stable) {
      if (!forgotten.has(handle.providerRecordId)) expect(ids.filter((id) => id === handle.providerRecordId)).toHaveLength(1);
    }
  });
});

describe('list when mem0 returns no created_at order', () => {
  it('falls back to mem0 page numbers and says so in a warning', async () => {
    const adapter = createTestAdapter(newestFirst);
    const scope = { companyId: 'unordered' };
    await writeEach(adapter, scope, 5, 'unordered');
    testServer.use(
      http.post(`${newestFirst.host}/v3/memories/`, ({ request }) => {
        const url = new URL(request.url);
        const [page, pageSize] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('page_size'))];
        const stored = [...newestFirst.store.memories.values()].filter((memory) => memory.app_id === 'unordered').map(listedMemory);
        // mem0 does not document its order; here it is none at all.
        const shuffled = [2, 0, 4, 1, 3].map((index) => stored[index]);
        const more = page * pageSize < shuffled.length;
        return HttpResponse.json({ count: shuffled.length, next: more ? `${newestFirst.host}/v3/memories/?page=${page + 1}` : null, previous: null, results: shuffled.slice((page - 1) * pageSize, page * pageSize) });
      }),
    );
    // Three records: the first page shows the disorder (two could look ordered by chance).
    const first = await adapter.list({ bindingKey: 'b', scope, limit: 3 });
    expect(first.warnings).toContainEqual(expect.objectContaining({ type: 'compatibility', feature: 'pagination' }));
    expect(first.items).toHaveLength(3);
    const ids = await walk(adapter, scope, 3);
    expect(new Set(ids).size).toBe(5);
    expect(ids).toHaveLength(5);
  });
});

describe.each([
  ['newest-first', newestFirst],
  ['oldest-first', oldestFirst],
] as const)('list when mem0 (%s on the first page) answers a later page in no created_at order', (order, fake) => {
  it('never restarts, repeats or skips: the walk orders the rest itself and says so', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: `shuffle-${order}` };
    const written = await writeEach(adapter, scope, 23, 'shuffled');
    const first = await adapter.list({ bindingKey: 'b', scope, limit: 5 });
    const ids = first.items.map((item) => item.handle.providerRecordId);
    let cursor = first.nextCursor;
    fake.store.listOrder = 'unordered';
    const warnings: string[] = [];
    try {
      while (cursor !== undefined) {
        const page = await adapter.list({ bindingKey: 'b', scope, limit: 5, cursor });
        ids.push(...page.items.map((item) => item.handle.providerRecordId));
        warnings.push(...(page.warnings ?? []).map((warning) => ('details' in warning ? String(warning.details) : '')));
        cursor = page.nextCursor;
      }
    } finally {
      fake.store.listOrder = order;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(written.map((handle) => handle.providerRecordId).sort());
    expect(warnings.some((details) => details.includes('ordered them itself'))).toBe(true);
  });
});

describe('list when a later page is unordered and cannot all be read', () => {
  it('fails with a typed error instead of returning a page that may skip records', async () => {
    const fake = oldestFirst;
    const adapter = createTestAdapter(fake);
    const scope = { companyId: 'short-count-co' };
    await writeEach(adapter, scope, 6, 'counted');
    const first = await adapter.list({ bindingKey: 'b', scope, limit: 2 });
    const rest = [...fake.store.memories.values()].filter((memory) => memory.app_id === scope.companyId).slice(2).reverse();
    // mem0 answers out of order and counts more records than it returns.
    testServer.use(
      http.post(`${fake.host}/v3/memories/`, () => HttpResponse.json({ count: rest.length + 5, next: null, previous: null, results: rest.map(listedMemory) })),
    );
    await expect(adapter.list({ bindingKey: 'b', scope, limit: 2, cursor: first.nextCursor })).rejects.toSatisfy(
      (error) => MemoryApiCallError.isInstance(error) && /could not all be read/.test(error.message),
    );
  });
});
