import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryConflictError } from '@memplane/core';
import { tokenize } from '@memplane/rules';
import { describe, expect, it } from 'vitest';
import type { MarkdownEmbedder } from './markdown-embedder';
import type { MemoryExtractor } from './markdown-extractor';
import { createRuleBasedExtractor } from './markdown-rule-extractor';
import { hashEmbedding } from './testing/hash-embedding';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const scope = { companyId: 'acme', agentId: 'planner' };
const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-1' };
const temporary = useTemporaryRoots();

const embedder: MarkdownEmbedder = {
  modelId: 'hash-64',
  dimensions: 64,
  async embed(texts) {
    return { embeddings: texts.map((text) => hashEmbedding(text, 64)) };
  },
};

/** Every file under a folder, hidden ones (the index, its WAL and shared memory) included. */
function everyFile(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? everyFile(path) : [path];
  });
}

/** The files under the root whose bytes hold the needle: as UTF-8, as the hex of its sha256 (the embedding cache's key) or as its vector. */
function filesHolding(root: string, needles: string[]): string[] {
  const found: string[] = [];
  for (const file of everyFile(root)) {
    const bytes = readFileSync(file);
    for (const needle of needles) {
      const hash = createHash('sha256').update(needle).digest('hex');
      const vector = Buffer.from(Float32Array.from(hashEmbedding(needle, 64)).buffer);
      if (bytes.includes(Buffer.from(needle, 'utf8')) || bytes.includes(Buffer.from(hash, 'ascii')) || bytes.includes(vector)) {
        found.push(`${file.slice(root.length)}: ${needle}`);
      }
    }
  }
  return found;
}

describe('markdown forget means gone', () => {
  it('leaves no byte of a captured, corrected and forgotten record in any file under the root, open or closed', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root, embedder });
    const kept = 'My name is Jerry Lindqvist.';
    const secret = 'I prefer deploying the orchid cluster on Fridays.';
    const captured = await adapter.capture({ bindingKey, scope, source, payload: { text: `${kept} ${secret} We decided to use SQLite for the ledger.` } });
    await adapter.upsertRecords({ bindingKey, scope, records: Array.from({ length: 30 }, (_, index) => ({ text: `Unrelated note number ${index} about the build.` })) });
    const snippets = await Promise.all(captured.records!.map((handle) => adapter.get(handle, scope)));
    const target = snippets.find((snippet) => snippet?.text === secret);
    expect(target, 'the secret was extracted as a record').toBeDefined();
    const versions = [secret];
    let handle = target!.handle;
    for (const day of ['Mondays', 'Tuesdays', 'Wednesdays']) {
      const text = `I prefer deploying the orchid cluster on ${day}.`;
      handle = (await adapter.correct(handle, { text, summary: `orchid summary ${day}`, metadata: { orchid: `orchid metadata ${day}` } }, scope)).record;
      versions.push(text, `orchid summary ${day}`, `orchid metadata ${day}`);
      await adapter.query({ bindingKey, scope, query: 'orchid cluster' });
    }
    expect(filesHolding(root, versions).length).toBeGreaterThan(0);

    await adapter.forget([handle], scope);
    expect(filesHolding(root, versions)).toEqual([]);
    // Not even a word of it: the full-text indexes keep the terms of deleted rows until a merge, and
    // the term tables beside them hold the analysed stems of repeated terms ("orchid 2": text and
    // summary both say orchid) until the row goes.
    const stems = [...new Set(tokenize(versions.join(' ')))].filter((term) => /^(orchid|cluster|monday|tuesday|wednesday)$/.test(term));
    expect(stems).toEqual(['orchid', 'cluster', 'monday', 'tuesday', 'wednesday']);
    expect(filesHolding(root, stems)).toEqual([]);
    expect(filesHolding(root, [kept]).some((entry) => entry.includes('.md'))).toBe(true);
    expect(await adapter.get(target!.handle, scope)).toBeNull();
    expect((await adapter.query({ bindingKey, scope, query: 'Jerry Lindqvist' })).snippets.map((snippet) => snippet.text)).toContain(kept);

    adapter.close();
    expect(filesHolding(root, [...versions, ...stems])).toEqual([]);
  });

  it.each(['index.sqlite', 'embeddings.sqlite'])('finishes erasing on a second forget when a reader held the write-ahead log of %s', async (held) => {
    const root = temporary.root();
    const writer = temporary.open({ root, lockTimeoutMs: 200, embedder });
    const other = temporary.open({ root, lockTimeoutMs: 200, embedder });
    const scope = { companyId: 'acme' };
    const secret = 'The staging password rotates every Quarzday.';
    const { records } = await writer.upsertRecords({ bindingKey, scope, records: [{ text: secret }, { text: 'Deploys happen on Tuesday.' }] });
    expect((await other.query({ bindingKey, scope, query: 'staging password' })).snippets.map((snippet) => snippet.text)).toContain(secret);
    // A reader that keeps its snapshot open, as a long read of another process would.
    const reader = new Database(join(root, '.memplane', held), { readonly: true });
    reader.pragma('busy_timeout = 200');
    reader.prepare('BEGIN').run();
    reader.prepare("SELECT count(*) FROM sqlite_master").get();
    await expect(writer.forget([records![0]!], scope)).rejects.toSatisfy((error) => MemoryConflictError.isInstance(error) && (error as MemoryConflictError).isRetryable);
    expect(await other.get(records![0]!, scope)).toBeNull();
    reader.prepare('COMMIT').run();
    reader.close();
    await writer.forget([records![0]!], scope);
    expect(filesHolding(root, [secret])).toEqual([]);
    expect(await other.get(records![1]!, scope)).toMatchObject({ text: 'Deploys happen on Tuesday.' });
    expect(filesHolding(root, [secret])).toEqual([]);
  });

  it('cuts a short forgotten text out of a resource wherever it occurs, inside longer words too', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const scope = { companyId: 'acme' };
    await adapter.capture({ bindingKey, scope, source, payload: { text: 'The Adapter team met Ada on Monday. Ada approved the Adapters.' } });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Ada' }] });
    await adapter.forget(records!, scope);
    const resources = readFileSync(everyFile(join(root, 'companies')).find((file) => file.includes('resources'))!, 'utf8');
    expect(resources).toContain('The pter team met  on Monday.  approved the pters.');
    expect(resources).not.toContain('Ada');
  });

  it('lets no extraction job bring back a sentence forgotten while it ran', async () => {
    const root = temporary.root();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rules = createRuleBasedExtractor();
    const extractor: MemoryExtractor = {
      name: 'gated-rules',
      mode: 'async',
      async extract(input) {
        await gate;
        return rules.extract(input);
      },
    };
    const adapter = temporary.open({ root, extractor, embedder });
    const scope = { companyId: 'acme' };
    const secret = 'We decided the vault code is kept by Odalys Brennicke.';
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: secret }] });
    const captured = await adapter.capture({ bindingKey, scope, source, payload: { text: `Meeting notes. ${secret} We decided to ship on Monday.` } });
    await adapter.forget(records!, scope);
    release();
    await adapter.whenIdle();
    const job = (await adapter.getExtractionJob!(captured.jobs![0]!.providerJobId, scope)).job;
    expect(job?.status).toBe('failed');
    expect(filesHolding(root, [secret, 'Brennicke'])).toEqual([]);
    // A retry extracts from what the forget left.
    await adapter.retryExtractionJob!(captured.jobs![0]!.providerJobId, scope);
    await adapter.whenIdle();
    expect((await adapter.getExtractionJob!(captured.jobs![0]!.providerJobId, scope)).job?.status).toBe('succeeded');
    expect((await adapter.list({ bindingKey, scope })).items.map((item) => item.text)).toEqual(['We decided to ship on Monday.']);
    expect(filesHolding(root, [secret, 'Brennicke'])).toEqual([]);
  });

  it('erases an upserted record from a resource captured with the same text in the scope', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const secret = 'The vault combination is kept by Ada Okafor.';
    await adapter.capture({ bindingKey, scope, source, payload: { text: `Notes from the meeting. ${secret}` } });
    const { records } = await adapter.upsertRecords({ bindingKey, scope: { ...scope, agentId: 'other' }, records: [{ text: secret }] });
    const found = await adapter.query({ bindingKey, scope, query: 'vault combination' });
    const own = found.snippets.find((snippet) => snippet.text === secret)!;
    await adapter.forget([own.handle], scope);
    const left = filesHolding(root, [secret]);
    // Only the record of the other scope, which was not forgotten, still holds the sentence.
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((entry) => entry.includes('agent=other') || entry.includes('.memplane'))).toBe(true);
    await adapter.forget(records!, { ...scope, agentId: 'other' });
    expect(filesHolding(root, [secret])).toEqual([]);
  });
});
