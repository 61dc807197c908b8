import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMarkdownAdapter } from './markdown-adapter';
import type { MarkdownEmbedder } from './markdown-embedder';
import { hashEmbedding } from './testing/hash-embedding';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();
const scope = { companyId: 'acme', agentId: 'planner' };
const embedder: MarkdownEmbedder = {
  modelId: 'hash-64',
  dimensions: 64,
  async embed(texts) {
    return { embeddings: texts.map((text) => hashEmbedding(text, 64)) };
  },
};

// Every file is created as permissively as the process allows: umask 0 and a root open to all.
let previousUmask: number;
beforeEach(() => {
  previousUmask = process.umask(0);
});
afterEach(() => {
  process.umask(previousUmask);
});
const openRoot = () => {
  const root = temporary.root();
  chmodSync(root, 0o777);
  return root;
};

const modeOf = (path: string) => statSync(path).mode & 0o777;
const state = (root: string, name: string) => join(root, '.memplane', name);

/** The SQLite files and the secret under `.memplane`, with their modes. */
function privateFiles(root: string): Record<string, number> {
  const modes: Record<string, number> = {};
  for (const name of readdirSync(join(root, '.memplane'))) {
    if (/^(index\.sqlite|index\.lock|embeddings\.sqlite)(-wal|-shm|-journal)?$|^cursor-secret$/.test(name)) modes[name] = modeOf(state(root, name));
  }
  return modes;
}

describe('file modes of a markdown root', () => {
  it('creates the index, the lock, the embedding cache, their -wal and -shm and the cursor secret with mode 0600 under umask 0', async () => {
    const root = openRoot();
    const adapter = temporary.open({ root, embedder });
    await adapter.upsertRecords({ bindingKey: 'test', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    await adapter.whenIdle();
    const modes = privateFiles(root);
    // The write created the write-ahead logs, so they are checked too.
    for (const name of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm', 'index.lock', 'embeddings.sqlite', 'embeddings.sqlite-wal', 'embeddings.sqlite-shm', 'cursor-secret']) {
      expect(modes[name], name).toBe(0o600);
    }
    expect(Object.values(modes).every((mode) => mode === 0o600)).toBe(true);
  });

  it('tightens world-readable files an earlier release left, write-ahead logs and cursor secret included', async () => {
    const root = openRoot();
    const first = createMarkdownAdapter({ root, embedder });
    await first.upsertRecords({ bindingKey: 'test', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    await first.whenIdle();
    first.close();
    // Another connection keeps the logs on disk (closing the last one removes them) with a write in them.
    const holders = ['index.sqlite', 'embeddings.sqlite'].map((name) => {
      const database = new Database(state(root, name));
      database.pragma('wal_autocheckpoint = 0');
      database.exec('CREATE TABLE IF NOT EXISTS leftover (value TEXT)');
      return database;
    });
    try {
      for (const name of Object.keys(privateFiles(root))) chmodSync(state(root, name), 0o666);
      expect(existsSync(state(root, 'index.sqlite-wal'))).toBe(true);
      const second = temporary.open({ root, embedder });
      await second.query({ bindingKey: 'test', scope, query: 'deploys' });
      const modes = privateFiles(root);
      expect(Object.keys(modes)).toEqual(expect.arrayContaining(['index.sqlite-wal', 'embeddings.sqlite-wal', 'cursor-secret']));
      expect(modes).toEqual(Object.fromEntries(Object.keys(modes).map((name) => [name, 0o600])));
    } finally {
      for (const holder of holders) holder.close();
    }
  });

  it('tightens a valid cursor secret shared with the group', () => {
    const root = openRoot();
    createMarkdownAdapter({ root }).close();
    writeFileSync(state(root, 'cursor-secret'), 'ab'.repeat(32));
    chmodSync(state(root, 'cursor-secret'), 0o640);
    temporary.open({ root });
    expect(modeOf(state(root, 'cursor-secret'))).toBe(0o600);
  });
});
