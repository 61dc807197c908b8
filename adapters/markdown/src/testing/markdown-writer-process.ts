import { createMarkdownAdapter } from '../markdown-adapter';

// A writer process for the concurrency and crash tests: it opens the root, waits for the parent's
// "start" message, then writes batches and acknowledges each one only after upsertRecords resolved.
const [root, writer, batchesText, batchSizeText] = process.argv.slice(2) as [string, string, string, string];
const batches = Number(batchesText);
const batchSize = Number(batchSizeText);
const scope = { companyId: 'shared-company', agentId: 'shared-agent' };
const adapter = createMarkdownAdapter({ root, sectionsPerFile: 200 });

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => process.send?.(message, () => resolve()));
}

process.on('message', async (message) => {
  if (message !== 'start') return;
  for (let batch = 0; batch < batches; batch += 1) {
    const texts = Array.from({ length: batchSize }, (_, index) => `Writer ${writer} batch ${batch} record ${index} keeps the deploy notes.`);
    const result = await adapter.upsertRecords({ bindingKey: 'test', scope, records: texts.map((text) => ({ text })) });
    await send({ type: 'ack', ids: result.records?.map((handle) => handle.providerRecordId), texts });
  }
  adapter.close();
  await send({ type: 'done' });
  process.exit(0);
});
void send({ type: 'ready' });
