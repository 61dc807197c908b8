import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMarkdownAdapter } from '../markdown-adapter';
import { parseMarkdownFile } from '../markdown-section-parser';
import { batchOf, counterText, harnessBatchSize, harnessScope } from './markdown-harness-corpus';

const writerScript = fileURLToPath(new URL('./markdown-batch-writer-process.ts', import.meta.url));

/** One acknowledged batch: the writer, its number and the ids upsertRecords returned. */
export interface AckedBatch {
  writer: string;
  batch: number;
  ids: string[];
}

/** A writer child process and what it reported. */
export interface WriterProcess {
  name: string;
  acks: AckedBatch[];
  /** Retryable errors the writer retried (busy locks), as last reported. */
  retries: number;
  /** Raw (untyped) busy errors among them, as last reported. */
  untyped: number;
  ready: Promise<void>;
  opening: Promise<void>;
  /** Settles when the writer stopped inside a batch (only with `pauseAfterAcks`). */
  insideWrite: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  start(): void;
  kill(): void;
  onAck(listener: (count: number) => void): void;
}

/**
 * Forks a writer process (see markdown-batch-writer-process.ts); `count` 0 writes until killed.
 * With `pauseAfterAcks`, the writer stops inside the batch after that many acknowledgements and
 * waits to be killed.
 */
export function startWriter(root: string, name: string, options: { first: number; count: number; sectionsPerFile: number; lockTimeoutMs: number; pauseAfterAcks?: number }): WriterProcess {
  const args = [root, name, String(options.first), String(options.count), String(options.sectionsPerFile), String(options.lockTimeoutMs)];
  const env = options.pauseAfterAcks === undefined ? process.env : { ...process.env, MEMPLANE_HARNESS_PAUSE_AFTER_ACKS: String(options.pauseAfterAcks) };
  // stdin stays an open pipe nobody writes: a paused writer blocks reading it until it is killed.
  const child = fork(writerScript, args, { env, execArgv: ['--import', 'tsx'], stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const listeners: Array<(count: number) => void> = [];
  const writer: WriterProcess = {
    name,
    acks: [],
    retries: 0,
    untyped: 0,
    ready: new Promise((resolve) => child.on('message', (message: { type: string }) => message.type === 'ready' && resolve())),
    opening: new Promise((resolve) => child.on('message', (message: { type: string }) => message.type === 'opening' && resolve())),
    insideWrite: new Promise((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('inside-write') && resolve())),
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr }))),
    start: () => child.send('start'),
    kill: () => child.kill('SIGKILL'),
    onAck: (listener) => listeners.push(listener),
  };
  child.on('message', (message: { type: string; batch?: number; ids?: string[]; retries?: number; untyped?: number }) => {
    if (message.retries !== undefined) writer.retries = message.retries;
    if (message.untyped !== undefined) writer.untyped = message.untyped;
    if (message.type !== 'ack') return;
    writer.acks.push({ writer: name, batch: message.batch as number, ids: message.ids as string[] });
    for (const listener of listeners) listener(writer.acks.length);
  });
  return writer;
}

/** What is on disk under `companies/`, read straight from the files. */
export interface DiskState {
  /** Every memory section: id, text and metadata. */
  sections: Array<{ id: string; text: string; metadata: Record<string, unknown> | undefined }>;
  /** Files that did not parse cleanly. */
  problems: string[];
  /** Hidden temporary files (left by a writer killed mid-write). */
  temporaries: number;
  /** Whether a batch journal is waiting under `.memplane/`. */
  journal: boolean;
}

/** Reads every markdown file under the root. */
export function readDisk(root: string): DiskState {
  const state: DiskState = { sections: [], problems: [], temporaries: 0, journal: existsSync(join(root, '.memplane/batch-journal.json')) };
  const walk = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.startsWith('.')) state.temporaries += 1;
      else {
        const parsed = parseMarkdownFile(readFileSync(path, 'utf8'), '2026-01-01T00:00:00.000Z');
        if (parsed.problems.length > 0 || parsed.unreadable.length > 0) state.problems.push(path);
        for (const section of parsed.sections) {
          if (section.type === 'memory') state.sections.push({ id: section.id, text: section.text, metadata: section.metadata });
        }
      }
    }
  };
  walk(join(root, 'companies'));
  return state;
}

/** The ids of every record of the harness scope the index lists, through a fresh adapter (which recovers first). */
export async function listIndexed(root: string): Promise<Set<string>> {
  const adapter = createMarkdownAdapter({ root });
  try {
    const ids = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await adapter.list({ bindingKey: 'harness', scope: harnessScope, limit: 200, ...(cursor === undefined ? {} : { cursor }) });
      for (const item of page.items) ids.add(item.handle.providerRecordId);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return ids;
  } finally {
    adapter.close();
  }
}

/** The verdict on a root after recovery. */
export interface Verdict {
  /** Acknowledged records missing from the markdown or from the index. */
  lost: number;
  /** Batches partly visible, or whose counter merge disagrees with the records visible. */
  torn: number;
  /** Files that did not parse. */
  unreadable: number;
  /** Records on disk the index does not list, or the reverse. */
  disagreeing: number;
  /** The highest batch visible per writer. */
  lastBatch: Map<string, number>;
}

/** Checks a recovered root against the acknowledged batches. Opens the root first, so recovery runs. */
export async function checkRoot(root: string, acked: AckedBatch[], writers: string[]): Promise<Verdict> {
  const indexed = await listIndexed(root);
  const disk = readDisk(root);
  const onDisk = new Set(disk.sections.map((section) => section.id));
  let lost = 0;
  for (const batch of acked) for (const id of batch.ids) if (!onDisk.has(id) || !indexed.has(id)) lost += 1;
  const perBatch = new Map<string, number>();
  const lastBatch = new Map<string, number>();
  for (const section of disk.sections) {
    const found = batchOf(section.text);
    if (found === undefined) continue;
    const key = `${found.writer}:${found.batch}`;
    perBatch.set(key, (perBatch.get(key) ?? 0) + 1);
  }
  let torn = 0;
  for (const [key, count] of perBatch) {
    if (count !== harnessBatchSize) torn += 1;
    const [writer, batch] = key.split(':') as [string, string];
    lastBatch.set(writer, Math.max(lastBatch.get(writer) ?? -1, Number(batch)));
  }
  for (const writer of writers) {
    const counter = disk.sections.find((section) => section.text === counterText(writer));
    const last = lastBatch.get(writer);
    // The counter merge is part of every batch: it names the last batch exactly when batches are whole.
    if (last !== undefined && counter?.metadata?.batch !== last) torn += 1;
  }
  const harnessIds = disk.sections.filter((section) => batchOf(section.text) !== undefined || section.text.endsWith('counter record.')).map((section) => section.id);
  const disagreeing = harnessIds.filter((id) => !indexed.has(id)).length + [...indexed].filter((id) => !onDisk.has(id)).length;
  return { lost, torn, unreadable: disk.problems.length, disagreeing, lastBatch };
}
