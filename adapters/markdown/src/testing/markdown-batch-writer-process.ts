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
    await send({ type: 'ack', batch, ids: result.records?.slice(0, texts.length).map((handle) => handle.providerRecordId), retries, untyped });
  }
  adapter.close();
  await send({ type: 'done', retries, untyped });
  process.exit(0);
});
void send({ type: 'ready' });
