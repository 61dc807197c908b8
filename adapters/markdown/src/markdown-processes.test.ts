import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseMarkdownFile } from './markdown-section-parser';
import { useTemporaryRoots } from './testing/temporary-root';

const writerScript = fileURLToPath(new URL('./testing/markdown-writer-process.ts', import.meta.url));
const scope = { companyId: 'shared-company', agentId: 'shared-agent' };
const temporary = useTemporaryRoots();

interface Ack {
  type: 'ack';
  ids: string[];
  texts: string[];
}

function startWriter(root: string, name: string, batches: number, batchSize: number) {
  const child = fork(writerScript, [root, name, String(batches), String(batchSize)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const acks: Ack[] = [];
  const ready = new Promise<void>((resolve) => child.on('message', (message: { type: string }) => message.type === 'ready' && resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  child.on('message', (message: Ack | { type: string }) => {
    if (message.type === 'ack') acks.push(message as Ack);
  });
  return { child, acks, ready, exited };
}

/** Every memory section of every markdown file under the root, read straight from disk. */
function readAllSections(root: string) {
  const files: string[] = [];
  const temporaries: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      // A writer killed mid-write leaves its hidden temporary file; it is never read, and the next writer removes it.
      else if (entry.name.startsWith('.tmp-')) temporaries.push(path);
      else files.push(path);
    }
  };
  walk(join(root, 'companies'));
  const ids: string[] = [];
  for (const file of files) {
    expect(file.endsWith('.md'), `leftover non-markdown file ${file}`).toBe(true);
    const parsed = parseMarkdownFile(readFileSync(file, 'utf8'), '2026-01-01T00:00:00.000Z');
    expect(parsed.problems).toEqual([]);
    expect(parsed.unreadable).toEqual([]);
    for (const section of parsed.sections) if (section.type === 'memory') ids.push(section.id);
  }
  return { files, ids, temporaries };
}

async function listIds(root: string): Promise<string[]> {
  const adapter = temporary.open({ root });
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await adapter.list({ bindingKey: 'test', scope, limit: 200, ...(cursor === undefined ? {} : { cursor }) });
    ids.push(...page.items.map((item) => item.handle.providerRecordId));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return ids;
}

function send(child: ChildProcess, message: string) {
  child.send(message);
}

describe('markdown adapter across processes', () => {
  it('loses nothing when two processes write to one root at the same time', async () => {
    const root = temporary.root();
    const writers = [startWriter(root, 'a', 20, 25), startWriter(root, 'b', 20, 25)];
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) send(writer.child, 'start');
    const exits = await Promise.all(writers.map((writer) => writer.exited));
    expect(exits.map((exit) => [exit.code, exit.stderr])).toEqual([[0, ''], [0, '']]);
    const acknowledged = writers.flatMap((writer) => writer.acks.flatMap((ack) => ack.ids));
    expect(new Set(acknowledged).size).toBe(1000);
    const onDisk = readAllSections(root);
    expect(onDisk.temporaries).toEqual([]);
    expect(new Set(onDisk.ids)).toEqual(new Set(acknowledged));
    expect(onDisk.ids).toHaveLength(1000);
    expect(onDisk.files.length).toBeGreaterThanOrEqual(5);
    expect((await listIds(root)).sort()).toEqual([...acknowledged].sort());
  });

  it('keeps every acknowledged write, and a readable, agreeing index, after SIGKILL in the middle of a burst', async () => {
    const root = temporary.root();
    const writer = startWriter(root, 'k', 400, 10);
    await writer.ready;
    writer.child.on('message', (message: { type: string }) => {
      // Killed from the acknowledgement handler: the writer is already inside its next write.
      if (message.type === 'ack' && writer.acks.length === 12) writer.child.kill('SIGKILL');
    });
    send(writer.child, 'start');
    const exit = await writer.exited;
    expect(exit.signal).toBe('SIGKILL');
    const acknowledged = writer.acks.flatMap((ack) => ack.ids);
    expect(acknowledged.length).toBeGreaterThanOrEqual(120);
    const onDisk = readAllSections(root);
    for (const id of acknowledged) expect(onDisk.ids).toContain(id);
    const indexed = await listIds(root);
    expect(indexed.sort()).toEqual([...onDisk.ids].sort());
    expect(readAllSections(root).temporaries).toEqual([]);
    const adapter = temporary.open({ root });
    const found = await adapter.query({ bindingKey: 'test', scope, query: 'deploy notes', topK: 100 });
    expect(found.snippets.length).toBe(100);
  });
});
