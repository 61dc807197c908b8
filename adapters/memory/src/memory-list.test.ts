import { InvalidCursorError, type MemoryAdapter } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from './memory-adapter';
import { acme, bindingKey, createTestAdapter, createTestClock, listAll, rejectionOf, write } from './memory-test-support';

function texts(count: number, prefix = 'record'): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);
}

async function cursorReason(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await rejectionOf(promise);
  expect(InvalidCursorError.isInstance(error)).toBe(true);
  return (error as InvalidCursorError).reason;
}

describe('list', () => {
  it('lists in creation order, 50 a page by default', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, ...texts(120));
    const first = await adapter.list({ bindingKey, scope: acme });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]?.text).toBe('record 1');
    expect(await listAll(adapter, acme, 7)).toEqual(texts(120));
  });

  it('gives the last page no cursor, even when it is exactly full', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, ...texts(4));
    const first = await adapter.list({ bindingKey, scope: acme, limit: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const last = await adapter.list({ bindingKey, scope: acme, limit: 2, cursor: first.nextCursor });
    expect(last.items.map((item) => item.text)).toEqual(['record 3', 'record 4']);
    expect(last).not.toHaveProperty('nextCursor');
    expect(await adapter.list({ bindingKey, scope: acme, limit: 4 })).not.toHaveProperty('nextCursor');
    expect(await adapter.list({ bindingKey, scope: { companyId: 'empty' } })).toMatchObject({ items: [] });
    expect(await adapter.list({ bindingKey, scope: { companyId: 'empty' } })).not.toHaveProperty('nextCursor');
  });

  it('never repeats or skips a record that exists throughout a walk, while others come and go', async () => {
    const adapter = createTestAdapter();
    const handles = await write(adapter, acme, ...texts(10));
    const seen: string[] = [];
    let cursor: string | undefined;
    let round = 0;
    do {
      const page = await adapter.list({ bindingKey, scope: acme, limit: 3, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.items.map((item) => item.text));
      cursor = page.nextCursor;
      round += 1;
      if (round === 1) {
        // Forget one record already served and one not yet served, and add two.
        await adapter.forget([handles[0] as never, handles[5] as never], acme);
        await write(adapter, acme, 'added 1', 'added 2');
      }
      if (round === 2) await write(adapter, acme, 'added 3');
    } while (cursor !== undefined);

    const survivors = texts(10).filter((text) => text !== 'record 6');
    expect(seen).toEqual([...survivors, 'added 1', 'added 2', 'added 3']);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by metadata across pages', async () => {
    const adapter = createTestAdapter();
    await write(
      adapter,
      acme,
      ...Array.from({ length: 9 }, (_, index) => ({ text: `note ${index + 1}`, metadata: { even: (index + 1) % 2 === 0 } })),
    );
    const first = await adapter.list({ bindingKey, scope: acme, limit: 2, metadataFilter: { even: true } });
    const second = await adapter.list({
      bindingKey,
      scope: acme,
      limit: 2,
      metadataFilter: { even: true },
      cursor: first.nextCursor,
    });
    expect([...first.items, ...second.items].map((item) => item.text)).toEqual(['note 2', 'note 4', 'note 6', 'note 8']);
    expect(second).not.toHaveProperty('nextCursor');
  });

  describe('cursors', () => {
    async function firstCursor(adapter: MemoryAdapter): Promise<string> {
      await write(adapter, acme, ...texts(3));
      return (await adapter.list({ bindingKey, scope: acme, limit: 1 })).nextCursor as string;
    }

    it('refuses a tampered cursor', async () => {
      const adapter = createTestAdapter();
      const cursor = await firstCursor(adapter);
      const [version, body, signature] = cursor.split('.') as [string, string, string];
      const position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: { after: number } };
      position.p.after = 0;
      const forged = `${version}.${Buffer.from(JSON.stringify(position)).toString('base64url')}.${signature}`;
      expect(await cursorReason(adapter.list({ bindingKey, scope: acme, cursor: forged }))).toBe('tampered');
      const flipped = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
      expect(await cursorReason(adapter.list({ bindingKey, scope: acme, cursor: flipped }))).toBe('tampered');
    });

    it('refuses a malformed cursor', async () => {
      const adapter = createTestAdapter();
      expect(await cursorReason(adapter.list({ bindingKey, scope: acme, cursor: 'page-2' }))).toBe('malformed');
    });

    it('refuses a cursor used with another scope, filter or listing', async () => {
      const adapter = createTestAdapter();
      const cursor = await firstCursor(adapter);
      const otherScope = adapter.list({ bindingKey, scope: { companyId: 'acme', agentId: 'a' }, cursor });
      expect(await cursorReason(otherScope)).toBe('foreign');
      const otherFilter = adapter.list({ bindingKey, scope: acme, cursor, metadataFilter: { kind: 'x' } });
      expect(await cursorReason(otherFilter)).toBe('stale');
      expect(await cursorReason(adapter.listExtractionJobs(acme, cursor))).toBe('stale');
    });

    it('refuses a cursor from an adapter over another store', async () => {
      const cursor = await firstCursor(createMemoryAdapter());
      expect(await cursorReason(createMemoryAdapter().list({ bindingKey, scope: acme, cursor }))).toBe('tampered');
    });

    it('accepts a cursor across stores that share a cursorSecret', async () => {
      const cursor = await firstCursor(createTestAdapter());
      const other = createTestAdapter();
      await write(other, acme, ...texts(3));
      const page = await other.list({ bindingKey, scope: acme, cursor });
      expect(page.items.map((item) => item.text)).toEqual(['record 2', 'record 3']);
    });

    it('refuses a cursor older than a day on the adapter clock', async () => {
      const clock = createTestClock();
      const adapter = createTestAdapter({ now: clock.now });
      const cursor = await firstCursor(adapter);
      clock.advance(24 * 60 * 60 * 1000 + 1);
      expect(await cursorReason(adapter.list({ bindingKey, scope: acme, cursor }))).toBe('stale');
    });
  });
});
