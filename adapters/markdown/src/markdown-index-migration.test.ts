import Database from 'better-sqlite3';
import { cpSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { indexSchemaVersion } from './markdown-index-schema';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();
/** A root written by @memplane/markdown 0.1.0: index schema 9 (FTS5 with the porter tokenizer, windows in a second FTS5 table). */
const releasedRoot = join(dirname(fileURLToPath(import.meta.url)), 'testing/fixtures/root-written-by-0.1.0');
const recordsFile = 'companies/acme/agent=planner/2026-11-29.md';

function tablesOf(root: string): string[] {
  const database = new Database(join(root, '.memplane/index.sqlite'), { readonly: true });
  try {
    return database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  } finally {
    database.close();
  }
}

describe('an index written by the 0.1.0 release', () => {
  it('is rebuilt on open onto the current index, with the markdown untouched and nothing of the old tables left', async () => {
    const root = temporary.root();
    cpSync(releasedRoot, root, { recursive: true });
    const before = readFileSync(join(root, recordsFile), 'utf8');
    expect(tablesOf(root)).toContain('windows_fts');
    const events: string[] = [];
    const adapter = temporary.open({ root, onEvent: (event) => events.push(event.type === 'index_rebuilt' ? event.reason : event.type) });
    expect(events).toEqual([`the index was built by schema version 9, not ${indexSchemaVersion}`]);
    const scope = { companyId: 'acme', agentId: 'planner' };
    const found = await adapter.query({ bindingKey: 'fixture', scope, query: 'when does billing deploy' });
    // The two records holding both terms first; windows bring their neighbours after them.
    expect(found.snippets.slice(0, 2).map((snippet) => snippet.text).sort()).toEqual(['Billing deploys on Tuesdays after the change review.', 'Never deploy billing on Fridays.']);
    // A turn found through its neighbour: the windows of the migrated records work.
    const neighbour = await adapter.query({ bindingKey: 'fixture', scope, query: 'where did Caroline go' });
    expect(neighbour.snippets.map((snippet) => snippet.text)).toContain('She went hiking in the Cairngorms with her sister.');
    // The other company's record stays its own.
    const beta = await adapter.query({ bindingKey: 'fixture', scope: { companyId: 'beta' }, query: 'invoices harbour billing' });
    expect(beta.snippets.map((snippet) => snippet.text)).toEqual(['Beta keeps its invoices in the harbour archive.']);
    await adapter.upsertRecords({ bindingKey: 'fixture', scope, records: [{ text: 'Billing freezes deploys in December.' }] });
    expect((await adapter.query({ bindingKey: 'fixture', scope, query: 'december freeze' })).snippets[0]?.text).toBe('Billing freezes deploys in December.');
    await adapter.whenIdle();
    adapter.close();
    expect(readFileSync(join(root, recordsFile), 'utf8').startsWith(before)).toBe(true);
    const tables = tablesOf(root);
    expect(tables.filter((table) => table.startsWith('windows'))).toEqual([]);
    expect(tables).toEqual(expect.arrayContaining(['records_fts', 'records_terms', 'records_totals', 'records_windows']));
  });

  it('is migrated once: a second open finds the current schema and does not rebuild', () => {
    const root = temporary.root();
    cpSync(releasedRoot, root, { recursive: true });
    temporary.open({ root }).close();
    const events: string[] = [];
    temporary.open({ root, onEvent: (event) => events.push(event.type) });
    expect(events).toEqual([]);
  });
});
