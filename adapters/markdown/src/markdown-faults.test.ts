import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMarkdownAdapter } from './markdown-adapter';
import { MarkdownRootLock } from './markdown-root-lock';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();
const scope = { companyId: 'acme', agentId: 'planner' };
const day = '2026-11-22';
const now = () => new Date(`${day}T10:00:00.000Z`);

/** What a call threw, so the test can check its type without a try block around each call. */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

/** Another process's connection holding the index's write lock, as a long write or rebuild does. */
function holdWriteLock(root: string): Database.Database {
  const database = new Database(join(root, '.memplane/index.sqlite'));
  database.exec('BEGIN IMMEDIATE');
  database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('held', 'yes')").run();
  return database;
}

function texts(count: number, label: string): Array<{ text: string }> {
  return Array.from({ length: count }, (_, index) => ({ text: `Batch ${label} record ${index} notes the release train.` }));
}

describe('markdown store under lock contention', () => {
  it('gives a retryable MemoryTimeoutError when the write lock stays busy, and writes nothing', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root, lockTimeoutMs: 50, now });
    await adapter.upsertRecords({ bindingKey: 'test', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    const holder = holdWriteLock(root);
    try {
      const error = await rejectionOf(adapter.upsertRecords({ bindingKey: 'test', scope, records: texts(3, 'busy') }));
      expect(MemoryError.hasCode(error, 'MEMORY_TIMEOUT')).toBe(true);
      expect((error as MemoryError).isRetryable).toBe(true);
      expect((error as MemoryError).message).toContain('write lock');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const listed = await adapter.list({ bindingKey: 'test', scope });
    expect(listed.items.map((item) => item.text)).toEqual(['Deploys happen on Tuesdays.']);
  });

  it('never deletes an index another process holds: an opener that must rebuild waits, then fails typed and retryable', async () => {
    const root = temporary.root();
    const first = createMarkdownAdapter({ root, now });
    await first.upsertRecords({ bindingKey: 'test', scope, records: texts(5, 'kept') });
    first.close();
    // An index of another schema version makes the next opener want to rebuild, as an upgrade does.
    const outdated = new Database(join(root, '.memplane/index.sqlite'));
    outdated.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    outdated.close();
    const inode = statSync(join(root, '.memplane/index.sqlite')).ino;
    const holder = holdWriteLock(root);
    try {
      const error = thrownBy(() => createMarkdownAdapter({ root, lockTimeoutMs: 50, now }));
      expect(MemoryError.hasCode(error, 'MEMORY_TIMEOUT')).toBe(true);
      expect((error as MemoryError).isRetryable).toBe(true);
      // The holder's file is still the index: not deleted, not replaced, and its pending write still commits.
      expect(statSync(join(root, '.memplane/index.sqlite')).ino).toBe(inode);
      holder.exec('COMMIT');
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
    const check = new Database(join(root, '.memplane/index.sqlite'), { readonly: true });
    expect(check.prepare("SELECT value FROM meta WHERE key = 'held'").get()).toEqual({ value: 'yes' });
    check.close();
    // Once the lock is free, the retry rebuilds in place and finds every record.
    const events: string[] = [];
    const retried = temporary.open({ root, now, onEvent: (event) => events.push(event.type) });
    expect(events).toContain('index_rebuilt');
    expect(retried.stats().records).toBe(5);
    expect(statSync(join(root, '.memplane/index.sqlite')).ino).toBe(inode);
  });
});

describe('markdown store failures are typed', () => {
  it('rolls a batch back whole when its second file fails (EISDIR): typed, not retryable, nothing visible after reopen', async () => {
    const root = temporary.root();
    const adapter = createMarkdownAdapter({ root, sectionsPerFile: 5, now });
    await adapter.upsertRecords({ bindingKey: 'test', scope, records: texts(3, 'before') });
    const folder = join(root, 'companies/acme/agent=planner');
    const firstFile = readFileSync(join(folder, `${day}.md`), 'utf8');
    mkdirSync(join(folder, `${day}-2.md`));
    const error = await rejectionOf(adapter.upsertRecords({ bindingKey: 'test', scope, records: texts(15, 'failing') }));
    expect(MemoryError.isInstance(error)).toBe(true);
    expect((error as MemoryError).isRetryable).toBe(false);
    expect((error as MemoryError).message).toContain('EISDIR');
    adapter.close();
    expect(readFileSync(join(folder, `${day}.md`), 'utf8')).toBe(firstFile);
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
    const reopened = temporary.open({ root, sectionsPerFile: 5, now });
    const listed = await reopened.list({ bindingKey: 'test', scope, limit: 100 });
    expect(listed.items.map((item) => item.text).sort()).toEqual(texts(3, 'before').map((record) => record.text).sort());
  });

  it('opens to a typed, non-retryable error when a folder stands where the index should be, and removes nothing', () => {
    const root = temporary.root();
    mkdirSync(join(root, '.memplane/index.sqlite'), { recursive: true });
    writeFileSync(join(root, '.memplane/index.sqlite/keep.txt'), 'mine');
    const error = thrownBy(() => createMarkdownAdapter({ root }));
    expect(MemoryError.isInstance(error)).toBe(true);
    expect((error as MemoryError).isRetryable).toBe(false);
    expect(readFileSync(join(root, '.memplane/index.sqlite/keep.txt'), 'utf8')).toBe('mine');
  });

  it('opens to a typed, non-retryable error when .memplane is a file', () => {
    const root = temporary.root();
    writeFileSync(join(root, '.memplane'), 'not a folder');
    const error = thrownBy(() => createMarkdownAdapter({ root }));
    expect(MemoryError.isInstance(error)).toBe(true);
    expect((error as MemoryError).isRetryable).toBe(false);
  });
});

describe('a damaged cursor secret', () => {
  const damaged: Array<[string, string]> = [
    ['empty', ''],
    ['a newline', '\n'],
    ['too short', 'ab'.repeat(31)],
    ['too long', 'ab'.repeat(33)],
    ['64 characters that are not hex', 'zz'.repeat(32)],
  ];

  it.each(damaged)('is replaced when %s, and the new secret signs cursors every process accepts', async (_shape, content) => {
    const root = temporary.root();
    const writer = createMarkdownAdapter({ root, now });
    await writer.upsertRecords({ bindingKey: 'test', scope, records: texts(4, 'paged') });
    writer.close();
    writeFileSync(join(root, '.memplane/cursor-secret'), content);
    const first = temporary.open({ root, now });
    const secret = readFileSync(join(root, '.memplane/cursor-secret'), 'utf8');
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(root, '.memplane/cursor-secret')).mode & 0o777).toBe(0o600);
    const page = await first.list({ bindingKey: 'test', scope, limit: 2 });
    const second = temporary.open({ root, now });
    expect(readFileSync(join(root, '.memplane/cursor-secret'), 'utf8')).toBe(secret);
    const next = await second.list({ bindingKey: 'test', scope, limit: 2, cursor: page.nextCursor as string });
    expect(next.items).toHaveLength(2);
  });

  it('is a typed configuration error naming the file when it cannot be read (a folder)', () => {
    const root = temporary.root();
    mkdirSync(join(root, '.memplane/cursor-secret'), { recursive: true });
    const error = thrownBy(() => createMarkdownAdapter({ root }));
    expect(MemoryError.hasCode(error, 'MEMORY_CONFIGURATION')).toBe(true);
    expect((error as MemoryError).message).toContain('cursor-secret');
  });
});

describe('recovery on open', () => {
  it('replaces an index that is not a database only when no other process has it open', async () => {
    const root = temporary.root();
    const writer = createMarkdownAdapter({ root, now });
    await writer.upsertRecords({ bindingKey: 'test', scope, records: texts(2, 'held') });
    writer.close();
    const indexPath = join(root, '.memplane/index.sqlite');
    writeFileSync(indexPath, 'this is not a database');
    const inode = statSync(indexPath).ino;
    // Another process with the root open holds the shared root lock, as every open adapter does.
    const other = MarkdownRootLock.acquireShared(join(root, '.memplane/index.lock'), 1000);
    try {
      const error = thrownBy(() => createMarkdownAdapter({ root, lockTimeoutMs: 50, now }));
      expect(MemoryError.hasCode(error, 'MEMORY_TIMEOUT')).toBe(true);
      expect((error as MemoryError).isRetryable).toBe(true);
      expect(statSync(indexPath).ino).toBe(inode);
      expect(readFileSync(indexPath, 'utf8')).toBe('this is not a database');
    } finally {
      other.close();
    }
    const events: string[] = [];
    const reopened = temporary.open({ root, now, onEvent: (event) => events.push(event.type === 'index_rebuilt' ? event.reason : event.type) });
    expect(events.some((event) => event.startsWith('the index could not be read'))).toBe(true);
    expect(reopened.stats().records).toBe(2);
  });

  it('finishes a batch whose journal was written before the crash', async () => {
    const root = temporary.root();
    const adapter = createMarkdownAdapter({ root, sectionsPerFile: 2, now });
    await adapter.upsertRecords({ bindingKey: 'test', scope, records: texts(1, 'first') });
    adapter.close();
    const folder = 'companies/acme/agent=planner';
    const original = readFileSync(join(root, folder, `${day}.md`), 'utf8');
    // What a writer killed right after its journal leaves: staged files, the journal, nothing renamed.
    const extra = (name: string) => `\n## Memory m_0mwr805bc000ad99055${name}\n\n- scope: {"agentId":"planner","companyId":"acme"}\n\n~~~text\nJournaled record ${name}.\n~~~\n`;
    writeFileSync(join(root, folder, '.tmp-a'), original + extra('9d390'));
    writeFileSync(join(root, folder, '.tmp-b'), original.split('\n## Memory')[0] + extra('9d391'));
    const journal = { version: 1, renames: [{ temporary: `${folder}/.tmp-a`, target: `${folder}/${day}.md` }, { temporary: `${folder}/.tmp-b`, target: `${folder}/${day}-2.md` }], removals: [] };
    writeFileSync(join(root, '.memplane/batch-journal.json'), JSON.stringify(journal));
    const reopened = temporary.open({ root, sectionsPerFile: 2, now });
    const listed = await reopened.list({ bindingKey: 'test', scope, limit: 10 });
    expect(listed.items.map((item) => item.text).sort()).toEqual([texts(1, 'first')[0]?.text, 'Journaled record 9d390.', 'Journaled record 9d391.'].sort());
    expect(existsSync(join(root, '.memplane/batch-journal.json'))).toBe(false);
  });

  it.each([
    ['a target outside companies/', { version: 1, renames: [{ temporary: '.tmp-x', target: 'outside.md' }], removals: [] }],
    ['a parent segment', { version: 1, renames: [], removals: ['companies/../../victim.md'] }],
    ['a temporary file in another folder', { version: 1, renames: [{ temporary: 'companies/b/.tmp-x', target: 'companies/a/x.md' }], removals: [] }],
    ['not JSON', 'garbage{'],
  ])('refuses a journal with %s: a configuration error naming it, and nothing touched', (_shape, journal) => {
    const root = temporary.root();
    mkdirSync(join(root, '.memplane'), { recursive: true });
    writeFileSync(join(root, 'victim.md'), 'keep me');
    writeFileSync(join(root, '.memplane/batch-journal.json'), typeof journal === 'string' ? journal : JSON.stringify(journal));
    const error = thrownBy(() => createMarkdownAdapter({ root }));
    expect(MemoryError.hasCode(error, 'MEMORY_CONFIGURATION')).toBe(true);
    expect((error as MemoryError).message).toContain('batch-journal.json');
    expect(readFileSync(join(root, 'victim.md'), 'utf8')).toBe('keep me');
  });
});
