import { MemoryInvalidResponseError, MemoryRateLimitedError } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleEmbedder } from './markdown-openai-embedder';
import { createOpenAICompatibleExtractor } from './markdown-openai-extractor';
import { createOpenAICompatibleFake } from './testing/openai-compatible-fake';
import { useTemporaryRoots } from './testing/temporary-root';

const baseURL = 'http://models.openai.test/v1';
const fake = createOpenAICompatibleFake(baseURL, 16, () => server.faults.isExtractionFailureInForce());
const server = setupTestServer(fake.handlers, { faultUrls: [`${baseURL}/*`] });
const temporary = useTemporaryRoots();
const bindingKey = 'test';
const scope = { companyId: 'acme' };
const embedder = () => createOpenAICompatibleEmbedder({ baseURL, apiKey: 'test-key', model: 'embed-small', dimensions: 16, retry: { maxRetries: 0 }, timeoutMs: 500 });
const extractor = () => createOpenAICompatibleExtractor({ baseURL, model: 'chat-small', retry: { maxRetries: 0 }, timeoutMs: 500 });

describe('OpenAI-compatible embedder', () => {
  it('sends the documented request and reports embedding tokens with the raw usage', async () => {
    const result = await embedder().embed(['one text', 'two texts here']);
    const call = server.calls.at(-1);
    expect(call?.url).toBe(`${baseURL}/embeddings`);
    expect(call?.headers.authorization).toBe('Bearer test-key');
    expect(call?.bodyJson).toEqual({ model: 'embed-small', input: ['one text', 'two texts here'], encoding_format: 'float' });
    expect(result.embeddings).toHaveLength(2);
    expect(result.usage).toMatchObject({ provider: 'markdown', biller: 'openai-compatible', model: 'embed-small', embeddingTokens: 5, raw: { prompt_tokens: 5, total_tokens: 5 } });
  });

  it('reports no tokens when the server reports no usage, and refuses vectors of the wrong length', async () => {
    server.use(http.post(`${baseURL}/embeddings`, () => HttpResponse.json({ data: [{ index: 0, embedding: new Array(16).fill(0.25) }] })));
    const result = await embedder().embed(['x']);
    expect(result.usage?.embeddingTokens).toBeUndefined();
    expect(result.usage?.raw).toBeUndefined();
    server.use(http.post(`${baseURL}/embeddings`, () => HttpResponse.json({ data: [{ index: 0, embedding: [1, 2] }] })));
    await expect(embedder().embed(['x'])).rejects.toSatisfy(MemoryInvalidResponseError.isInstance);
  });

  it('maps a 429 to MemoryRateLimitedError with retryAfterMs', async () => {
    server.faults.inject({ kind: 'rate_limited', retryAfterSeconds: 3 });
    await expect(embedder().embed(['x'])).rejects.toSatisfy((error: unknown) => MemoryRateLimitedError.isInstance(error) && error.retryAfterMs === 3000);
  });

  it('embeds each text once: the cache by content hash serves later writes and rebuilds', async () => {
    const adapter = temporary.open({ root: temporary.root(), embedder: embedder() });
    const before = fake.state.embeddedTexts.length;
    const first = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The staging database is rebuilt nightly.' }] });
    expect(first.usage?.find((entry) => entry.embeddingTokens !== undefined)).toMatchObject({ embeddingTokens: 6, raw: { total_tokens: 6 } });
    await adapter.upsertRecords({ bindingKey, scope: { companyId: 'other' }, records: [{ text: 'The staging database is rebuilt nightly.' }] });
    adapter.rebuildIndex();
    const found = await adapter.query({ bindingKey, scope, query: 'when is staging rebuilt' });
    expect(found.snippets.map((snippet) => snippet.text)).toEqual(['The staging database is rebuilt nightly.']);
    expect(fake.state.embeddedTexts.slice(before)).toEqual(['The staging database is rebuilt nightly.', 'when is staging rebuilt']);
  });

  it('finds by vector what shares no stemmed term with the query, and writes nothing when the embedder fails', async () => {
    const adapter = temporary.open({ root: temporary.root(), embedder: embedder(), fusion: 'weighted' });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'alpha beta gamma' }, { text: 'delta epsilon zeta' }] });
    const found = await adapter.query({ bindingKey, scope, query: 'zeta epsilon delta!' });
    expect(found.snippets[0]?.text).toBe('delta epsilon zeta');
    const explained = await adapter.explain(found, scope);
    expect(explained.steps.map((step) => step.stage)).toEqual(expect.arrayContaining(['lexical', 'vector', 'fusion']));
    server.faults.inject({ kind: 'server_error', status: 503 });
    await expect(adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'never written' }] })).rejects.toMatchObject({ statusCode: 503 });
    server.faults.reset();
    expect((await adapter.list({ bindingKey, scope })).items).toHaveLength(2);
  });
});

describe('OpenAI-compatible LLM extractor', () => {
  it('asks for strict JSON output and reports token usage with the raw payload', async () => {
    const output = await extractor().extract({ text: 'I prefer concise answers. We decided to use SQLite.', scope });
    const body = server.calls.at(-1)?.bodyJson as { response_format: { type: string; json_schema: { strict: boolean } }; messages: Array<{ role: string }> };
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(output.items.map((item) => item.kind)).toEqual(['preference', 'decision']);
    expect(output.usage?.[0]).toMatchObject({ provider: 'markdown', model: 'chat-small', inputTokens: expect.any(Number), outputTokens: expect.any(Number), cachedInputTokens: 0, raw: expect.any(Object) });
  });

  it('refuses content that is not the item schema', async () => {
    server.use(http.post(`${baseURL}/chat/completions`, () => HttpResponse.json({ choices: [{ message: { content: '{"items":[{"kind":"gossip"}]}' } }] })));
    await expect(extractor().extract({ text: 'x y z', scope })).rejects.toSatisfy(MemoryInvalidResponseError.isInstance);
  });

  it('runs capture as an extraction job, reports its usage once, and retries a failed job', async () => {
    const adapter = temporary.open({ root: temporary.root(), extractor: extractor() });
    expect(adapter.capabilities).toMatchObject({ asyncExtraction: true, listExtractionJobs: true, retryExtractionJob: true });
    const source = { kind: 'manual_note' as const, companyId: 'acme' };
    server.faults.inject({ kind: 'extraction_failure' });
    const captured = await adapter.capture({ bindingKey, scope, source, payload: { text: 'I prefer tabs. Never deploy on Fridays.' } });
    const job = captured.jobs?.[0];
    expect(job?.status).toBe('queued');
    await adapter.whenIdle();
    const failed = await adapter.getExtractionJob(job!.providerJobId, scope);
    expect(failed.job).toMatchObject({ status: 'failed', error: expect.stringContaining('MEMORY_API_CALL') });
    server.faults.reset();
    await expect(adapter.retryExtractionJob(job!.providerJobId, { companyId: 'other' })).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    await adapter.retryExtractionJob(job!.providerJobId, scope);
    await adapter.whenIdle();
    const finished = await adapter.getExtractionJob(job!.providerJobId, scope);
    expect(finished.job).toMatchObject({ status: 'succeeded', finishedAt: expect.any(String) });
    expect(finished.usage?.some((entry) => entry.inputTokens !== undefined)).toBe(true);
    const again = await adapter.getExtractionJob(job!.providerJobId, scope);
    expect(again.usage?.some((entry) => entry.inputTokens !== undefined)).toBe(false);
    await expect(adapter.retryExtractionJob(job!.providerJobId, scope)).rejects.toMatchObject({ code: 'MEMORY_CONFLICT' });
    const listed = await adapter.listExtractionJobs(scope);
    expect(listed.items.map((item) => item.providerJobId)).toEqual([job!.providerJobId]);
    const records = await adapter.list({ bindingKey, scope });
    expect(records.items.map((item) => item.text)).toEqual(['I prefer tabs.', 'Never deploy on Fridays.']);
  });
});
