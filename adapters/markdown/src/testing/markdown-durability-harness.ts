import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRecordSection } from '../markdown-record-builder';
import { renderFileHeader, renderSection } from '../markdown-section-writer';
import { checkRoot, readDisk, startWriter, type AckedBatch } from './markdown-harness-checks';

/** What the crash harness counted. */
export interface CrashReport {
  kills: number;
  /** Kills that left a decided batch (journal) or staged temporary files behind: the crash hit a write. */
  killsInsideWrite: number;
  acknowledgedBatches: number;
  acknowledgedRecords: number;
  lost: number;
  torn: number;
  unreadable: number;
  disagreeing: number;
}

/** How the crash harness kills. */
export interface CrashHarnessOptions {
  /** How many times the writer is killed. */
  kills: number;
  /**
   * Every this-many-th kill (the first, then every n-th after it) waits for the writer to stop
   * inside a batch before killing it, so the run holds kills inside a write whatever the machine's
   * timing; the others fall at random moments. Default: none.
   */
  insideWriteEvery?: number;
  /** The longest wait after an acknowledgement before the kill. */
  maxDelayMs: number;
  /** Picks the moments, in [0, 1). */
  random: () => number;
}

/**
 * Kills a writer process with SIGKILL `kills` times, each at a random moment of a stream of
 * multi-file batches (10 records plus a counter merge, `sectionsPerFile` 4, so every batch
 * rewrites one file and appends to two or three), then reopens the root and checks that every
 * acknowledged record is in the markdown and the index, and that every batch is whole or absent.
 * `random` picks the moments; `maxDelayMs` bounds the wait after an acknowledgement; with
 * `insideWriteEvery`, some kills wait for the writer to stop inside a batch instead.
 */
export async function runCrashHarness(root: string, options: CrashHarnessOptions): Promise<CrashReport> {
  const report: CrashReport = { kills: 0, killsInsideWrite: 0, acknowledgedBatches: 0, acknowledgedRecords: 0, lost: 0, torn: 0, unreadable: 0, disagreeing: 0 };
  const acked: AckedBatch[] = [];
  let next = 0;
  for (let kill = 0; kill < options.kills; kill += 1) {
    const afterAcks = Math.floor(options.random() * 3) + 1;
    const delayMs = options.random() * options.maxDelayMs;
    const paused = options.insideWriteEvery !== undefined && kill % options.insideWriteEvery === 0;
    const writer = startWriter(root, 'k', { first: next, count: 0, sectionsPerFile: 4, lockTimeoutMs: 10_000, ...(paused ? { pauseAfterAcks: afterAcks } : {}) });
    await writer.ready;
    // The moment of the crash is the fault injected: a random time after a random acknowledgement,
    // or the writer's stop inside the batch that follows it.
    if (paused) void writer.insideWrite.then(() => writer.kill());
    else {
      writer.onAck((count) => {
        if (count === afterAcks) setTimeout(() => writer.kill(), delayMs);
      });
    }
    writer.start();
    const exit = await writer.exited;
    if (exit.signal !== 'SIGKILL') throw new Error(`the writer ended by itself (${exit.code}): ${exit.stderr}`);
    report.kills += 1;
    const before = readDisk(root);
    if (before.journal || before.temporaries > 0) report.killsInsideWrite += 1;
    acked.push(...writer.acks);
    const verdict = await checkRoot(root, acked, ['k']);
    // Each check covers everything acknowledged so far, and damage stays on disk: keep the worst.
    report.lost = Math.max(report.lost, verdict.lost);
    report.torn = Math.max(report.torn, verdict.torn);
    report.unreadable = Math.max(report.unreadable, verdict.unreadable);
    report.disagreeing = Math.max(report.disagreeing, verdict.disagreeing);
    next = (verdict.lastBatch.get('k') ?? -1) + 1;
  }
  report.acknowledgedBatches = acked.length;
  report.acknowledgedRecords = acked.reduce((sum, batch) => sum + batch.ids.length, 0);
  return report;
}

/** What the concurrency harness counted. */
export interface ConcurrencyReport {
  seededRecords: number;
  writers: number;
  /** Retryable busy errors the openers and writers met and retried. */
  busyRetries: number;
  /** Busy errors that reached the writers raw, not as a memplane error. */
  untypedErrors: number;
  acknowledgedRecords: number;
  lost: number;
  torn: number;
  unreadable: number;
  disagreeing: number;
}

/** Writes `records` records of another agent straight to markdown, 1000 a file, so the first open must rebuild them. */
export function seedMarkdown(root: string, records: number): void {
  const scope = { companyId: 'harness', agentId: 'seed' };
  const folder = join(root, 'companies/harness/agent=seed');
  mkdirSync(folder, { recursive: true });
  const at = '2026-11-22T10:00:00.000Z';
  for (let file = 0; file * 1000 < records; file += 1) {
    const sections: string[] = [];
    for (let index = file * 1000; index < Math.min(records, (file + 1) * 1000); index += 1) {
      sections.push(`\n${renderSection(buildRecordSection(scope, { text: `Seed record ${index} about release ${index % 97} and the build queue.` }, at))}`);
    }
    writeFileSync(join(folder, `2026-11-22${file === 0 ? '' : `-${file + 1}`}.md`), renderFileHeader(scope, 'Memory records') + sections.join(''));
  }
}

/**
 * Seeds `records` records as markdown with no index, starts process "a", and once it is opening
 * (rebuilding the whole index under the write lock) starts `writers - 1` more processes that open
 * the same root with a short lock timeout (retrying the typed busy error) and write. Every process
 * writes `batches` batches to the same scope. Then checks every acknowledged write.
 */
export async function runConcurrencyHarness(root: string, options: { records: number; writers: number; batches: number; lockTimeoutMs: number }): Promise<ConcurrencyReport> {
  seedMarkdown(root, options.records);
  const names = Array.from({ length: options.writers }, (_, index) => String.fromCharCode(97 + index));
  const writers = names.map((name) => startWriter(root, name, { first: 0, count: options.batches, sectionsPerFile: 200, lockTimeoutMs: name === 'a' ? 60_000 : options.lockTimeoutMs }));
  await Promise.all(writers.map((writer) => writer.ready));
  const [rebuilder, ...others] = writers as [(typeof writers)[number], ...typeof writers];
  rebuilder.start();
  await rebuilder.opening;
  for (const writer of others) writer.start();
  const exits = await Promise.all(writers.map((writer) => writer.exited));
  const failed = exits.filter((exit) => exit.code !== 0);
  if (failed.length > 0) throw new Error(`a writer failed: ${failed.map((exit) => exit.stderr || `code ${exit.code}`).join('\n')}`);
  const acked = writers.flatMap((writer) => writer.acks);
  const verdict = await checkRoot(root, acked, names);
  return {
    seededRecords: options.records,
    writers: options.writers,
    busyRetries: writers.reduce((sum, writer) => sum + writer.retries, 0),
    untypedErrors: writers.reduce((sum, writer) => sum + writer.untyped, 0),
    acknowledgedRecords: acked.reduce((sum, batch) => sum + batch.ids.length, 0),
    lost: verdict.lost,
    torn: verdict.torn,
    unreadable: verdict.unreadable,
    disagreeing: verdict.disagreeing,
  };
}
