import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from './memory-adapter';
import { createMemoryStore } from './memory-store';
import { acme, bindingKey, createTestAdapter, createTestClock, listAll, write } from './memory-test-support';

describe('deduplication', () => {
  it('updates the record with the same scope and text instead of adding one', async () => {
    const clock = createTestClock();
    const store = createMemoryStore();
    const adapter = createTestAdapter({ store, now: clock.now });
    const [first] = await write(adapter, acme, { text: 'Prefers dark mode.', summary: 'theme', metadata: { kind: 'preference' } });
    clock.advance(60_000);
    const source = { kind: 'manual_note' as const, companyId: 'acme' };
    const { records } = await adapter.upsertRecords({
      bindingKey,
      scope: acme,
      source,
      records: [{ text: 'Prefers dark mode.', metadata: { kind: 'preference', confirmed: true } }],
    });
    expect(records).toEqual([first]);
    expect(await listAll(adapter, acme)).toEqual(['Prefers dark mode.']);
    const snippet = await adapter.get(first as never, acme);
    expect(snippet).toMatchObject({
      summary: 'theme',
      metadata: { kind: 'preference', confirmed: true },
      source,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:01:00.000Z',
    });
    const stored = store.inspectRecord('mem_000001');
    expect(stored).toMatchObject({ state: 'live', version: 2 });
    expect(stored?.state === 'live' && stored.history).toEqual([
      {
        version: 1,
        text: 'Prefers dark mode.',
        summary: 'theme',
        metadata: { kind: 'preference' },
        updatedAt: '2025-01-01T00:00:00.000Z',
        replacedAt: '2025-01-01T00:01:00.000Z',
        reason: 'rewritten by a write with the same text',
      },
    ]);
  });

  it('changes nothing at all when the same record is written again', async () => {
    const clock = createTestClock();
    const store = createMemoryStore();
    const adapter = createTestAdapter({ store, now: clock.now });
    const [first] = await write(adapter, acme, { text: 'Idempotent.', metadata: { a: 1, b: [1, 2] } });
    clock.advance(1000);
    const [second] = await write(adapter, acme, { text: 'Idempotent.', metadata: { b: [1, 2], a: 1 } });
    expect(second).toEqual(first);
    expect(store.inspectRecord('mem_000001')).toMatchObject({ version: 1, history: [], updatedAt: '2025-01-01T00:00:00.000Z' });
  });

  it('returns the same handle for repeats within one write', async () => {
    const adapter = createTestAdapter();
    const handles = await write(adapter, acme, 'Same text.', 'Other text.', 'Same text.');
    expect(handles.map((handle) => handle.providerRecordId)).toEqual(['mem_000001', 'mem_000002', 'mem_000001']);
  });

  it('keeps records apart when the scope or the exact text differs', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'Same text.');
    await write(adapter, { companyId: 'acme', agentId: 'planner' }, 'Same text.');
    await write(adapter, acme, 'Same text. ', 'same text.');
    expect(await listAll(adapter, acme)).toEqual(['Same text.', 'Same text.', 'Same text. ', 'same text.']);
  });

  it('treats scopes that differ only in field order as the same scope', async () => {
    const adapter = createTestAdapter();
    const [first] = await write(adapter, { companyId: 'acme', agentId: 'a', projectId: 'p' }, 'Order-free.');
    const [second] = await write(adapter, { projectId: 'p', agentId: 'a', companyId: 'acme' }, 'Order-free.');
    expect(second).toEqual(first);
  });

  it('never revives a forgotten record: the same text makes a new one', async () => {
    const adapter = createTestAdapter();
    const [first] = await write(adapter, acme, 'Forget me.');
    await adapter.forget([first as never], acme);
    const [second] = await write(adapter, acme, 'Forget me.');
    expect(second?.providerRecordId).toBe('mem_000002');
    expect(await adapter.get(first as never, acme)).toBeNull();
  });

  it('dedupes captured records too', async () => {
    const adapter = createTestAdapter();
    const [written] = await write(adapter, acme, 'Captured twice.');
    const captured = await adapter.capture({
      bindingKey,
      scope: acme,
      source: { kind: 'manual_note', companyId: 'acme' },
      payload: { text: 'Captured twice.' },
      mode: 'capture_record',
    });
    expect(captured.records).toEqual([written]);
  });
});

describe('inspectRecord', () => {
  it('reads a live record with its history, as a copy', async () => {
    const store = createMemoryStore();
    const adapter = createTestAdapter({ store });
    await write(adapter, { companyId: 'acme', agentId: 'a' }, { text: 'Inspect me.', metadata: { n: 1 } });
    const view = store.inspectRecord('mem_000001');
    expect(view).toEqual({
      state: 'live',
      id: 'mem_000001',
      scope: { companyId: 'acme', agentId: 'a' },
      text: 'Inspect me.',
      metadata: { n: 1 },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      version: 1,
      history: [],
    });
    if (view?.state === 'live' && view.metadata !== undefined) view.metadata.n = 2;
    expect(store.inspectRecord('mem_000001')).toMatchObject({ metadata: { n: 1 } });
  });

  it('shows a forgotten record as a tombstone whose content is erased', async () => {
    const clock = createTestClock();
    const store = createMemoryStore();
    const adapter = createTestAdapter({ store, now: clock.now });
    const [handle] = await write(adapter, acme, { text: 'Secret.', summary: 'secret', metadata: { pin: '1234' } });
    await adapter.correct(handle as never, { text: 'Still secret.' }, acme);
    clock.advance(5000);
    await adapter.forget([handle as never], acme);
    expect(store.inspectRecord('mem_000001')).toEqual({
      state: 'forgotten',
      id: 'mem_000001',
      scope: { companyId: 'acme' },
      createdAt: '2025-01-01T00:00:00.000Z',
      forgottenAt: '2025-01-01T00:00:05.000Z',
    });
    expect(JSON.stringify(store.inspectRecord('mem_000001'))).not.toContain('ecret');
  });

  it('returns undefined for ids the store never issued', () => {
    expect(createMemoryStore().inspectRecord('mem_000001')).toBeUndefined();
  });
});

describe('peers', () => {
  it('share records, jobs, id sequences and cursors through one store', async () => {
    const store = createMemoryStore();
    const first = createMemoryAdapter({ store });
    const second = createMemoryAdapter({ store });
    await write(first, acme, 'one', 'two', 'three');
    const [fourth] = await write(second, acme, 'four');
    expect(fourth?.providerRecordId).toBe('mem_000004');

    const page = await first.list({ bindingKey, scope: acme, limit: 2 });
    const rest = await second.list({ bindingKey, scope: acme, limit: 2, cursor: page.nextCursor });
    expect([...page.items, ...rest.items].map((item) => item.text)).toEqual(['one', 'two', 'three', 'four']);

    const captured = await first.capture({
      bindingKey,
      scope: acme,
      source: { kind: 'run', companyId: 'acme' },
      payload: { text: 'Peers poll the same job.' },
    });
    const jobId = captured.jobs?.[0]?.providerJobId as string;
    expect((await second.getExtractionJob(jobId, acme)).job?.status).toBe('running');
    expect((await first.getExtractionJob(jobId, acme)).job?.status).toBe('succeeded');
    expect(await listAll(second, acme)).toContain('Peers poll the same job.');
  });
});
