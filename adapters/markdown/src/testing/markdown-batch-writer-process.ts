import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { MemoryError } from '@memplane/core';
import { createMarkdownAdapter, type MarkdownAdapter } from '../markdown-adapter';
import { batchTexts, counterText, harnessScope } from './markdown-harness-corpus';

// A writer process of the crash and concurrency harnesses. Arguments: root, writer name, first
// batch, number of batches (0: until killed), sectionsPerFile, lockTimeoutMs. It says "ready", waits
// for "start", opens the root (retrying retryable errors, which it counts), then writes batches of
// ten records plus a merge into its counter record, so one batch rewrites one file and appends to
// others. It acknowledges a batch only after upsertRecords resolved.
const [root, writer, firstText, countText, sectionsText, lockText] = process.argv.slice(2) as [string, string, string, string, string, string];
const first = Number(firstText);
const count = Number(countText);
let retries = 0;
let untyped = 0;
let acknowledged = 0;

// With MEMPLANE_HARNESS_PAUSE_AFTER_ACKS=n, the writer stops inside the batch after its n-th
// acknowledgement, just before a staged markdown file is renamed into place (the batch journal is
// written and other files are staged), says "inside-write" on stdout and blocks on stdin, which the
// parent never writes: the parent's SIGKILL then lands inside a write whatever the machine's timing.
const pauseAfterAcks = process.env.MEMPLANE_HARNESS_PAUSE_AFTER_ACKS;
if (pauseAfterAcks !== undefined) {
  const rename = fs.renameSync;
  fs.renameSync = (from, to) => {
    if (acknowledged >= Number(pauseAfterAcks) && String(to).endsWith('.md')) {
      fs.writeSync(1, 'inside-write\n');
      fs.readSync(0, Buffer.alloc(1));
    }
    rename(from, to);
  };
  // The adapter imports renameSync by name: this carries the change to those bindings.
  syncBuiltinESMExports();
}

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => process.send?.(message, () => resolve()));
}

/** Runs `work` until it succeeds; a retryable memplane error is retried, anything else ends the process. */
async function withRetry<Result>(work: () => Result | Promise<Result>): Promise<Result> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      // A raw busy error is retried too, as a caller of an untyped store would, and counted apart.
      const rawBusy = !MemoryError.isInstance(error) && String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');
      if (!rawBusy && !(MemoryError.isInstance(error) && error.isRetryable)) throw error;
      if (rawBusy) untyped += 1;
      retries += 1;
    }
  }
}

process.on('message', async (message) => {
  if (message !== 'start') return;
  await send({ type: 'opening' });
  const adapter: MarkdownAdapter = await withRetry(() => createMarkdownAdapter({ root, sectionsPerFile: Number(sectionsText), lockTimeoutMs: Number(lockText) }));
  await send({ type: 'opened', retries, untyped });
  for (let batch = first; count === 0 || batch < first + count; batch += 1) {
    const texts = batchTexts(writer, batch);
    const records = [...texts.map((text) => ({ text })), { text: counterText(writer), metadata: { batch } }];
    const result = await withRetry(() => adapter.upsertRecords({ bindingKey: 'harness', scope: harnessScope, records }));
    acknowledged += 1;
    await send({ type: 'ack', batch, ids: result.records?.slice(0, texts.length).map((handle) => handle.providerRecordId), retries, untyped });
  }
  adapter.close();
  await send({ type: 'done', retries, untyped });
  process.exit(0);
});
void send({ type: 'ready' });
