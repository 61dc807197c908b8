import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { afterAll } from 'vitest';
import { createMarkdownAdapter, type MarkdownAdapter } from './markdown-adapter';
import { createOpenAICompatibleEmbedder } from './markdown-openai-embedder';
import { createOpenAICompatibleExtractor } from './markdown-openai-extractor';
import { createOpenAICompatibleFake } from './testing/openai-compatible-fake';

const baseURL = 'http://models.markdown.test/v1';
const fake = createOpenAICompatibleFake(baseURL, 32, () => server.faults.isExtractionFailureInForce());
const server = setupTestServer(fake.handlers, { faultUrls: [`${baseURL}/*`] });

function suite(name: string, configure: (root: string) => Parameters<typeof createMarkdownAdapter>[0], extra: Partial<Parameters<typeof describeMemoryAdapterConformance>[0]>) {
  const root = mkdtempSync(join(tmpdir(), 'memplane-markdown-conformance-'));
  const open: MarkdownAdapter[] = [];
  const create = async () => {
    // Each rule gets fresh adapter objects; earlier ones are closed once their jobs are done.
    for (const adapter of open.splice(0)) {
      await adapter.whenIdle();
      adapter.close();
    }
    const adapter = createMarkdownAdapter(configure(root));
    open.push(adapter);
    return adapter;
  };
  afterAll(async () => {
    for (const adapter of open.splice(0)) {
      await adapter.whenIdle();
      adapter.close();
    }
    rmSync(root, { recursive: true, force: true });
  });
  describeMemoryAdapterConformance({
    name,
    createAdapter: create,
    createPeerAdapter: () => {
      const peer = createMarkdownAdapter(configure(root));
      open.push(peer);
      return peer;
    },
    waitForConsistency: async () => {
      for (const adapter of open) await adapter.whenIdle();
    },
    ...extra,
  });
}

suite(
  '@memplane/markdown with an LLM extractor and an embedder over msw',
  (root) => ({
    root,
    extractor: createOpenAICompatibleExtractor({ baseURL, model: 'fake-chat', retry: { maxRetries: 0 }, timeoutMs: 250 }),
    embedder: createOpenAICompatibleEmbedder({ baseURL, model: 'fake-embed', dimensions: 32, retry: { maxRetries: 0 }, timeoutMs: 250 }),
  }),
  // list reads only the local index, and the manifest says so (remoteOperations): its fault rules are skipped from it.
  { faults: server.faults },
);

// The zero-config adapter calls no remote service (remoteOperations is empty), so the manifest
// skips its fault rules; they run in the suite above, where the model endpoints go over msw.
suite('@memplane/markdown zero-config (rule extractor, lexical only)', (root) => ({ root }), {});
