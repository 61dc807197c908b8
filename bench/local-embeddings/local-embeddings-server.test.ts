import { request as httpRequest } from 'node:http';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAICompatibleEmbedder } from '@memplane/markdown';
import { embedMany } from 'ai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUniversalSentenceEncoder, universalSentenceEncoderModel, type LocalEmbedder, type LocalEmbedding } from './local-embedder';
import { createLocalEmbeddingsApp, startLocalEmbeddingsServer, type LocalEmbeddingsServer } from './local-embeddings-server';

/** A deterministic stand-in that records its calls: each vector is derived from its text alone. */
function recordingEmbedder(maxBatch: number, answer?: (texts: readonly string[]) => LocalEmbedding | Promise<LocalEmbedding>) {
  const calls: string[][] = [];
  const embedder: LocalEmbedder = {
    model: 'recording',
    dimensions: 3,
    maxBatch,
    async embed(texts) {
      calls.push([...texts]);
      if (answer !== undefined) return answer(texts);
      return { embeddings: texts.map(vectorOf), tokens: texts.reduce((sum, text) => sum + text.length, 0) };
    },
  };
  return { embedder, calls };
}

function vectorOf(text: string): number[] {
  let sum = 0;
  for (const char of text) sum = (sum * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return [text.length, sum, text.codePointAt(0) ?? 0];
}

function cosine(left: number[], right: number[]): number {
  const dot = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);
  return dot(left, right) / Math.sqrt(dot(left, left) * dot(right, right));
}

/** An in-memory request to the app, addressed as a loopback client addresses it. */
function call(app: ReturnType<typeof createLocalEmbeddingsApp>, body: unknown, init: { contentType?: string; host?: string; method?: string; path?: string } = {}) {
  return app.request(init.path ?? '/v1/embeddings', {
    method: init.method ?? 'POST',
    headers: { host: init.host ?? 'localhost:1', 'content-type': init.contentType ?? 'application/json' },
    ...((init.method ?? 'POST') === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}
const loopbackHosts = () => new Set(['localhost:1']);

describe('local embeddings server with Universal Sentence Encoder lite', () => {
  let model: LocalEmbedder;
  let server: LocalEmbeddingsServer;
  beforeAll(async () => {
    model = await loadUniversalSentenceEncoder({ maxBatch: 2 });
    server = await startLocalEmbeddingsServer({ embedder: model });
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1 only, on the port it picked', () => {
    const address = server.server.address();
    expect(address).toMatchObject({ address: '127.0.0.1', port: server.port });
    expect(server.baseURL).toBe(`http://127.0.0.1:${server.port}/v1`);
  });

  it("answers the AI SDK's OpenAI-compatible embedding model: every text in order across batches, real token usage, semantic neighbours", async () => {
    const values = ['I love my dog', 'The stock market fell sharply today', 'My puppy is adorable', 'Caroline went to a support group', 'Melanie painted a sunrise'];
    const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL });
    const result = await embedMany({ model: provider.embeddingModel(universalSentenceEncoderModel), values, maxRetries: 0 });
    expect(result.embeddings).toHaveLength(5);
    for (const vector of result.embeddings) expect(vector).toHaveLength(512);
    // Batches of 2 on the server: each vector must still be its own text's.
    for (const [index, value] of values.entries()) {
      const alone = (await model.embed([value])).embeddings[0]!;
      expect(cosine(result.embeddings[index]!, alone)).toBeGreaterThan(0.9999);
    }
    expect(result.usage.tokens).toBe((await model.embed(values)).tokens);
    expect(result.usage.tokens).toBeGreaterThan(values.length);
    const [dog, stock, puppy] = result.embeddings as [number[], number[], number[]];
    expect(cosine(dog, puppy)).toBeGreaterThan(cosine(dog, stock) + 0.2);
  });

  it("serves the markdown adapter's OpenAI-compatible embedder, which the benchmarks use", async () => {
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: universalSentenceEncoderModel, dimensions: 512 });
    const { embeddings, usage } = await embedder.embed(['hello world']);
    expect(embeddings[0]).toHaveLength(512);
    expect(usage?.embeddingTokens).toBeGreaterThan(0);
  });

  it('accepts a single string as input, as OpenAI does', async () => {
    const response = await fetch(`${server.baseURL}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: universalSentenceEncoderModel, input: 'hello' }) });
    const body = (await response.json()) as { data: Array<{ index: number; embedding: number[] }> };
    expect(response.status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ index: 0 });
  });

  it('refuses another model by name, and the AI SDK reports why', async () => {
    const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL });
    await expect(embedMany({ model: provider.embeddingModel('text-embedding-3-small'), values: ['x'], maxRetries: 0 })).rejects.toThrow(/does not exist/);
  });

  it('refuses a request addressed to a name other than loopback (DNS rebinding)', async () => {
    const status = await new Promise<number | undefined>((resolveStatus, reject) => {
      const sent = httpRequest({ host: '127.0.0.1', port: server.port, path: '/v1/models', headers: { host: `attacker.example:${server.port}` } }, (response) => {
        response.resume();
        resolveStatus(response.statusCode);
      });
      sent.once('error', reject);
      sent.end();
    });
    expect(status).toBe(403);
  });
});

describe('local embeddings server: hostile requests and a faulty model', () => {
  const refusals: Array<[string, unknown, { contentType?: string; method?: string; path?: string }, number]> = [
    ['a body that is not JSON', '{"model":', {}, 400],
    ['a body that is not declared JSON', { model: 'recording', input: 'x' }, { contentType: 'text/plain' }, 415],
    ['another model', { model: 'other', input: 'x' }, {}, 404],
    ['no input', { model: 'recording' }, {}, 400],
    ['an empty list', { model: 'recording', input: [] }, {}, 400],
    ['an empty text', { model: 'recording', input: ['fine', ''] }, {}, 400],
    ['token ids instead of text', { model: 'recording', input: [1, 2, 3] }, {}, 400],
    ['more texts than allowed', { model: 'recording', input: ['a', 'b', 'c', 'd'] }, {}, 400],
    ['a text longer than allowed', { model: 'recording', input: 'x'.repeat(101) }, {}, 400],
    ['base64 vectors', { model: 'recording', input: 'x', encoding_format: 'base64' }, {}, 400],
    ['fewer dimensions than the model has', { model: 'recording', input: 'x', dimensions: 2 }, {}, 400],
    ['a body over the size limit', { model: 'recording', input: ['y'.repeat(100), 'y'.repeat(100), 'y'.repeat(100)] }, {}, 413],
    ['a GET of the embeddings route', undefined, { method: 'GET' }, 404],
  ];
  it.each(refusals)('refuses %s with an OpenAI error, before the model runs', async (_, body, init, status) => {
    const { embedder, calls } = recordingEmbedder(8);
    const app = createLocalEmbeddingsApp({ embedder, maxInputs: 3, maxInputChars: 100, maxBodyBytes: 250 }, loopbackHosts);
    const response = await call(app, body, init);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { message: string } }).error.message).not.toBe('');
    expect(calls).toEqual([]);
  });

  const faults: Array<[string, (texts: readonly string[]) => LocalEmbedding | Promise<LocalEmbedding>]> = [
    ['one vector short', (texts) => ({ embeddings: texts.slice(1).map(vectorOf), tokens: 1 })],
    ['a vector of the wrong length', (texts) => ({ embeddings: texts.map((text) => [...vectorOf(text), 0]), tokens: 1 })],
    ['a NaN in a vector', (texts) => ({ embeddings: texts.map(() => [0, Number.NaN, 0]), tokens: 1 })],
    ['a thrown error', () => Promise.reject(new Error('out of memory'))],
  ];
  it.each(faults)('answers 500, never a partial list, when the model gives %s', async (_, answer) => {
    const { embedder } = recordingEmbedder(8, answer);
    const response = await call(createLocalEmbeddingsApp({ embedder }, loopbackHosts), { model: 'recording', input: ['a', 'b'] });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { type: 'server_error' } });
  });

  it('omits usage when the model cannot count tokens, instead of reporting zero', async () => {
    const { embedder } = recordingEmbedder(8, (texts) => ({ embeddings: texts.map(vectorOf), tokens: undefined }));
    const body = await (await call(createLocalEmbeddingsApp({ embedder }, loopbackHosts), { model: 'recording', input: ['a'] })).json();
    expect(body).not.toHaveProperty('usage');
  });

  it('returns every text at its own index whatever the batch size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 7 }), async (texts, maxBatch) => {
        const { embedder, calls } = recordingEmbedder(maxBatch);
        const response = await call(createLocalEmbeddingsApp({ embedder }, loopbackHosts), { model: 'recording', input: texts });
        const body = (await response.json()) as { data: Array<{ index: number; embedding: number[] }>; usage: { total_tokens: number } };
        expect(body.data.map((entry) => entry.index)).toEqual(texts.map((_, index) => index));
        expect(body.data.map((entry) => entry.embedding)).toEqual(texts.map(vectorOf));
        expect(body.usage.total_tokens).toBe(texts.reduce((sum, text) => sum + text.length, 0));
        expect(calls.every((batch) => batch.length <= maxBatch)).toBe(true);
        expect(calls.flat()).toEqual(texts);
      }),
      { numRuns: 60 },
    );
  });

  it('runs the model one call at a time when requests arrive together', async () => {
    let inFlight = 0;
    let most = 0;
    const { embedder } = recordingEmbedder(1, async (texts) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Yield to the event loop a few times so overlapping calls, if allowed, would overlap here.
      for (let turn = 0; turn < 5; turn += 1) await new Promise<void>((resolveTurn) => setImmediate(resolveTurn));
      inFlight -= 1;
      return { embeddings: texts.map(vectorOf), tokens: 1 };
    });
    const app = createLocalEmbeddingsApp({ embedder }, loopbackHosts);
    const responses = await Promise.all([call(app, { model: 'recording', input: ['a', 'b'] }), call(app, { model: 'recording', input: ['c', 'd'] })]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(most).toBe(1);
  });
});
