import { MemoryNotFoundError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store';
import { acme, bindingKey, createTestAdapter, createTestClock, listAll, rejectionOf, write } from './memory-test-support';

describe('get', () => {
  it('reads null for unknown ids, other adapters and other companies: no existence oracle', async () => {
    const adapter = createTestAdapter();
    const [handle] = await write(adapter, acme, 'Exists.');
    expect(await adapter.get({ providerKey: 'memory', providerRecordId: 'mem_999999' }, acme)).toBeNull();
    expect(await adapter.get({ providerKey: 'memory', providerRecordId: 'not-an-id' }, acme)).toBeNull();
    expect(await adapter.get({ providerKey: 'mem0', providerRecordId: 'mem_000001' }, acme)).toBeNull();
    expect(await adapter.get(handle as never, { companyId: 'globex' })).toBeNull();
  });
});

describe('forget', () => {
  it('removes the records from get, list, query and profile', async () => {
    const adapter = createTestAdapter();
    const [gone, kept] = await write(
      adapter,
      acme,
      { text: 'Prefers tea.', metadata: { kind: 'preference' } },
      { text: 'Prefers quiet rooms.', metadata: { kind: 'preference' } },
    );
    const result = await adapter.forget([gone as never], acme);
    expect(result.warnings).toEqual([]);
    expect(await adapter.get(gone as never, acme)).toBeNull();
    expect(await adapter.get(kept as never, acme)).not.toBeNull();
    expect(await listAll(adapter, acme)).toEqual(['Prefers quiet rooms.']);
    expect((await adapter.query({ bindingKey, scope: acme, query: 'prefers tea' })).snippets).toHaveLength(1);
    expect((await adapter.profile(acme)).summary).toBe('- Prefers quiet rooms.');
  });

  it('treats missing, foreign and already forgotten handles as harmless no-ops', async () => {
    const adapter = createTestAdapter();
    const [acmeRecord] = await write(adapter, acme, 'Acme record.');
    const [globexRecord] = await write(adapter, { companyId: 'globex' }, 'Globex record.');
    await adapter.forget([acmeRecord as never], acme);
    const result = await adapter.forget(
      [
        acmeRecord as never,
        globexRecord as never,
        { providerKey: 'memory', providerRecordId: 'mem_424242' },
        { providerKey: 'mem0', providerRecordId: 'abc' },
      ],
      acme,
    );
    expect(result.warnings).toEqual([
      { type: 'other', message: 'Skipped handle abc: it was issued by mem0, not memory.' },
    ]);
    expect(await adapter.get(globexRecord as never, { companyId: 'globex' })).not.toBeNull();
    expect(await adapter.forget([], acme)).toMatchObject({ warnings: [] });
  });
});

describe('correct', () => {
  it('makes a new version of the same record and keeps the old one in its history', async () => {
    const clock = createTestClock();
    const store = createMemoryStore();
    const adapter = createTestAdapter({ store, now: clock.now });
    const [handle] = await write(adapter, acme, {
      text: 'Deploys happen on Tuesdays.',
      summary: 'deploy day',
      metadata: { kind: 'fact', confidence: 0.5 },
    });
    clock.advance(60_000);
    const result = await adapter.correct(
      handle as never,
      { text: 'Deploys happen on Wednesdays.', metadata: { confidence: 0.9, checkedBy: 'ops' }, reason: 'calendar moved' },
      acme,
    );
    expect(result.record).toEqual(handle);
    expect(result).not.toHaveProperty('supersedes');

    expect(await adapter.get(handle as never, acme)).toMatchObject({
      text: 'Deploys happen on Wednesdays.',
      summary: 'deploy day',
      metadata: { kind: 'fact', confidence: 0.9, checkedBy: 'ops' },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:01:00.000Z',
    });
    expect(store.inspectRecord('mem_000001')).toMatchObject({
      version: 2,
      history: [
        {
          version: 1,
          text: 'Deploys happen on Tuesdays.',
          summary: 'deploy day',
          metadata: { kind: 'fact', confidence: 0.5 },
          updatedAt: '2025-01-01T00:00:00.000Z',
          replacedAt: '2025-01-01T00:01:00.000Z',
          reason: 'calendar moved',
        },
      ],
    });

    clock.advance(60_000);
    await adapter.correct(handle as never, { summary: 'deploy weekday' }, acme);
    const third = store.inspectRecord('mem_000001');
    expect(third).toMatchObject({ version: 3, summary: 'deploy weekday' });
    expect(third?.state === 'live' && third.history.map((version) => [version.version, version.text, version.reason])).toEqual([
      [1, 'Deploys happen on Tuesdays.', 'calendar moved'],
      [2, 'Deploys happen on Wednesdays.', undefined],
    ]);
  });

  it('searches and dedupes by the corrected text', async () => {
    const adapter = createTestAdapter();
    const [handle] = await write(adapter, acme, 'Deploys happen on Tuesdays.');
    await adapter.correct(handle as never, { text: 'Deploys happen on Wednesdays.' }, acme);
    expect((await adapter.query({ bindingKey, scope: acme, query: 'tuesdays' })).snippets).toEqual([]);
    expect((await adapter.query({ bindingKey, scope: acme, query: 'wednesdays' })).snippets).toHaveLength(1);
    expect(await write(adapter, acme, 'Deploys happen on Wednesdays.')).toEqual([handle]);
    expect((await write(adapter, acme, 'Deploys happen on Tuesdays.'))[0]?.providerRecordId).toBe('mem_000002');
  });

  it('throws MemoryNotFoundError for records it cannot see', async () => {
    const adapter = createTestAdapter();
    const [handle] = await write(adapter, acme, 'Visible to acme only.');
    const [forgotten] = await write(adapter, acme, 'Forgotten.');
    await adapter.forget([forgotten as never], acme);
    const attempts = [
      adapter.correct(handle as never, { text: 'x' }, { companyId: 'globex' }),
      adapter.correct(forgotten as never, { text: 'x' }, acme),
      adapter.correct({ providerKey: 'memory', providerRecordId: 'mem_000099' }, { text: 'x' }, acme),
      adapter.correct({ providerKey: 'mem0', providerRecordId: 'mem_000001' }, { text: 'x' }, acme),
    ];
    for (const attempt of attempts) {
      expect(MemoryNotFoundError.isInstance(await rejectionOf(attempt))).toBe(true);
    }
    expect((await adapter.get(handle as never, acme))?.text).toBe('Visible to acme only.');
  });
});

describe('profile', () => {
  it('summarises the profile, preference, goal and constraint records, oldest first', async () => {
    const adapter = createTestAdapter();
    await write(
      adapter,
      acme,
      { text: 'Name is Ada.', metadata: { kind: 'profile' } },
      { text: 'Deploys happen on Tuesdays.', metadata: { kind: 'fact' } },
      { text: 'Prefers short answers.', metadata: { kind: 'preference' } },
      { text: 'Wants to ship v2\nby March.', metadata: { kind: 'goal' } },
      { text: 'Never deploys on Fridays.', metadata: { kind: 'constraint' } },
      { text: 'Untyped note.' },
    );
    const profile = await adapter.profile(acme);
    expect(profile.summary).toBe(
      ['- Name is Ada.', '- Prefers short answers.', '- Wants to ship v2 by March.', '- Never deploys on Fridays.'].join('\n'),
    );
    expect(profile.items?.map((item) => item.handle.providerRecordId)).toEqual([
      'mem_000001',
      'mem_000003',
      'mem_000004',
      'mem_000005',
    ]);
    expect(profile.items?.[0]).toMatchObject({ text: 'Name is Ada.', metadata: { kind: 'profile' }, scope: acme });
  });

  it('falls back to the 10 most recent records when none has a profile kind', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, ...Array.from({ length: 12 }, (_, index) => ({ text: `note ${index + 1}`, metadata: { kind: 'fact' } })));
    const profile = await adapter.profile(acme);
    expect(profile.items?.map((item) => item.text)).toEqual(Array.from({ length: 10 }, (_, index) => `note ${index + 3}`));
    expect(profile.summary.split('\n')[0]).toBe('- note 3');
  });

  it('is empty for an empty scope', async () => {
    const profile = await createTestAdapter().profile(acme);
    expect(profile).toMatchObject({ summary: '', items: [] });
  });
});
