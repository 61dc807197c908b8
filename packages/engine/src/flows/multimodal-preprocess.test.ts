import { MemoryInvalidResponseError, MemoryTimeoutError, MemoryValidationError } from '@memplane/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import type { LlmProfile } from '../profiles/llm-profiles';
import { createInMemoryStore } from '../store/memory/memory-store';
import type { EngineStore } from '../store/engine-store';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { hangingModel, mediaModel, pngBytes, twoPagePdf, wavBytes } from '../testing/multimodal-fixtures';

const scope = { org: 'acme', project: 'apollo' };
const range = { org: 'acme', project: 'apollo' };
const whiteboard = {
  segments: [
    { source: 'caption', text: 'A photo of a whiteboard from the architecture review.' },
    { source: 'ocr', text: 'We decided to use Postgres with pgvector for production.' },
  ],
};

function engineWith(vision: LlmProfile | undefined, store: EngineStore = createInMemoryStore()) {
  return createMemoryEngine({
    scope: orgProjectScope,
    store,
    profiles: vision === undefined ? { default: {} } : { default: {}, vision },
    roleProfiles: vision === undefined ? {} : { preprocess: 'vision' },
    now: steppingClock(),
  });
}

async function nothingWritten(engine: Awaited<ReturnType<typeof engineWith>>, store: EngineStore): Promise<void> {
  expect(await engine.listItems(range, {}, { limit: 10 })).toEqual([]);
  expect(await store.listCategories({ org: ['acme'] })).toEqual([]);
  const [run] = await engine.listRuns();
  expect(run?.status).toBe('failed');
}

afterEach(() => vi.restoreAllMocks());

describe('preprocess_multimodal with a model', () => {
  it('captions an image into segments; rule extraction cites the segment and its media span; usage is logged', async () => {
    const model = mediaModel(whiteboard);
    const store = createInMemoryStore();
    const engine = await engineWith({ model, mediaInputs: ['image'] }, store);
    const image = pngBytes();
    const result = await engine.memorize(scope, { type: 'resource', data: image, mimeType: 'image/png', metadata: { album: 'reviews' } });
    expect(result.warnings).toEqual([]);
    expect(model.files).toEqual([{ mediaType: 'image/png', data: image }]);

    const resource = await store.getResource(scope, result.resourceId);
    expect(resource).toMatchObject({ modality: 'image', mimeType: 'image/png', metadata: { album: 'reviews', 'memplane:media': { status: 'processed', kind: 'image', byteLength: image.byteLength, profile: 'vision', segments: 2 } } });
    expect(resource?.content).toBe(`${whiteboard.segments[0]?.text}\n${whiteboard.segments[1]?.text}`);
    const segments = await store.getSegments(scope, result.resourceId);
    expect(segments.map((segment) => resource?.content?.slice(segment.start, segment.end))).toEqual(whiteboard.segments.map((segment) => segment.text));

    const items = [...(await engine.getItems(scope, result.itemIds)).values()];
    const decision = items.find((item) => item.kind === 'decision');
    expect(decision?.text).toBe('We decided to use Postgres with pgvector for production.');
    expect(decision?.evidence[0]).toMatchObject({ resourceId: result.resourceId, segmentId: segments[1]?.id, start: segments[1]?.start, media: { source: 'ocr' } });
    expect((await engine.retrieve(scope, 'which database for production?')).items[0]?.item.id).toBe(decision?.id);

    const [run] = await engine.listRuns({ flow: 'memorize' });
    expect(run?.llmUsage).toEqual([expect.objectContaining({ stepId: 'preprocess_multimodal', profile: 'vision', model: 'mock-provider:mock-vision', inputTokens: 1200, outputTokens: 40, raw: expect.anything() })]);
    expect(run?.steps.find((step) => step.stepId === 'preprocess_multimodal')?.detail).toContain('image: 2 segments');
    expect(run?.inputSummary).toBe(`resource: image/png, ${image.byteLength} bytes`);
  });

  it('reads a PDF (base64) page by page: evidence names the page', async () => {
    const model = mediaModel({ segments: [{ source: 'page', page: 1, text: 'Quarterly plan.' }, { source: 'page', page: 2, text: 'Our goal is to reach the Zanzibar milestone by spring.' }] });
    const engine = await engineWith({ model, mediaInputs: ['pdf'] });
    const pdf = twoPagePdf();
    const result = await engine.memorize(scope, { type: 'resource', data: Buffer.from(pdf).toString('base64'), mimeType: 'application/pdf' });
    expect(model.files[0]?.mediaType).toBe('application/pdf');
    expect(Buffer.from(model.files[0]?.data as Uint8Array).equals(Buffer.from(pdf))).toBe(true);
    const goal = [...(await engine.getItems(scope, result.itemIds)).values()].find((item) => item.kind === 'goal');
    expect(goal?.evidence[0]).toMatchObject({ page: 2, media: { source: 'page' } });
  });

  it('transcribes audio into timed segments: evidence carries the time span and the speaker', async () => {
    const model = mediaModel({ segments: [{ source: 'transcript', startMs: 0, endMs: 4000, speaker: 'Ana', text: 'Hello all.' }, { source: 'transcript', startMs: 4000, endMs: 9500, speaker: 'Ana', text: 'We decided to move the launch to May.' }] });
    const engine = await engineWith({ model, mediaInputs: ['audio'] });
    const result = await engine.memorize(scope, { type: 'resource', data: wavBytes(), mimeType: 'audio/wav' });
    const decision = [...(await engine.getItems(scope, result.itemIds)).values()].find((item) => item.kind === 'decision');
    expect(decision?.text).toBe('Ana: We decided to move the launch to May.');
    expect(decision?.evidence[0]?.media).toEqual({ source: 'transcript', startMs: 4000, endMs: 9500 });
  });

  it('memorizing the same bytes again is a duplicate, whether as bytes or as base64', async () => {
    const model = mediaModel(whiteboard);
    const engine = await engineWith({ model, mediaInputs: ['image'] });
    const first = await engine.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' });
    const again = await engine.memorize(scope, { type: 'resource', data: Buffer.from(pngBytes()).toString('base64'), mimeType: 'IMAGE/PNG', uri: 'https://files.example/w.png' });
    expect(again).toMatchObject({ duplicate: true, resourceId: first.resourceId, itemIds: [] });
    expect(model.doGenerateCalls.length).toBe(1);
  });
});

describe('preprocess_multimodal refuses a hostile model answer, writing nothing', () => {
  const cases: Array<[string, unknown, string]> = [
    ['garbage instead of JSON', 'I cannot help with that <<<', 'did not match'],
    ['off-schema JSON', { segments: [{ source: 'telepathy', text: 'x' }] }, 'did not match'],
    ['a page the PDF does not have', { segments: [{ source: 'page', page: 7, text: 'Page seven.' }] }, 'page 7, outside the file (pages 1 to 2)'],
    ['a page without a number', { segments: [{ source: 'page', text: 'Somewhere.' }] }, 'no page number'],
    ['a time span in a PDF', { segments: [{ source: 'page', page: 1, startMs: 0, endMs: 10, text: 'x' }] }, 'time span'],
    ['too many segments', { segments: Array.from({ length: 501 }, () => ({ source: 'page', page: 1, text: 'x' })) }, 'did not match'],
    ['a huge segment', { segments: [{ source: 'page', page: 1, text: 'x'.repeat(20_001) }] }, 'did not match'],
    ['more text than the bound', { segments: Array.from({ length: 11 }, () => ({ source: 'page', page: 1, text: 'y'.repeat(19_000) })) }, 'more than 200000 characters'],
    ['a NUL character', { segments: [{ source: 'page', page: 1, text: 'a\u0000b' }] }, 'not well-formed'],
  ];
  it.each(cases)('%s', async (_, answer, message) => {
    const store = createInMemoryStore();
    const engine = await engineWith({ model: mediaModel(answer), mediaInputs: ['pdf'], maxRetries: 0 }, store);
    const error = await engine.memorize(scope, { type: 'resource', data: twoPagePdf(), mimeType: 'application/pdf' }).catch((caught: unknown) => caught);
    expect(MemoryInvalidResponseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(message);
    await nothingWritten(engine, store);
  });

  it('a reversed or out-of-order time span in audio', async () => {
    for (const segments of [[{ source: 'transcript', startMs: 5000, endMs: 1000, text: 'x' }], [{ source: 'transcript', startMs: 5000, endMs: 6000, text: 'a' }, { source: 'transcript', startMs: 100, endMs: 200, text: 'b' }], [{ source: 'transcript', text: 'untimed' }]]) {
      const engine = await engineWith({ model: mediaModel({ segments }), mediaInputs: ['audio'], maxRetries: 0 });
      await expect(engine.memorize(scope, { type: 'resource', data: wavBytes(), mimeType: 'audio/wav' })).rejects.toSatisfy((error: unknown) => MemoryInvalidResponseError.isInstance(error));
    }
  });

  it('an image answer citing a page', async () => {
    const engine = await engineWith({ model: mediaModel({ segments: [{ source: 'caption', page: 3, text: 'A cat.' }] }), mediaInputs: ['image'], maxRetries: 0 });
    await expect(engine.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' })).rejects.toThrow(/a image has no pages/);
  });

  it('a model that hangs is cut off at the profile timeout (MemoryTimeoutError)', async () => {
    const store = createInMemoryStore();
    const engine = await engineWith({ model: hangingModel(), mediaInputs: ['image'], timeoutMs: 25, maxRetries: 0 }, store);
    await expect(engine.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' })).rejects.toSatisfy((error: unknown) => MemoryTimeoutError.isInstance(error));
    await nothingWritten(engine, store);
  });
});

describe('files and URIs a model cannot read', () => {
  it('zero-config: the file is kept unprocessed with a typed warning; a later memorize with a model processes it and replaces the row', async () => {
    const store = createInMemoryStore();
    const bare = await engineWith(undefined, store);
    const kept = await bare.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' });
    expect(kept).toMatchObject({ duplicate: false, itemIds: [], warnings: [{ code: 'media.unprocessed', reason: 'no_model' }] });
    expect((await store.getResource(scope, kept.resourceId))?.metadata).toEqual({ 'memplane:media': { status: 'unprocessed', reason: 'no_model', kind: 'image', byteLength: pngBytes().byteLength } });
    expect((await bare.listRuns())[0]?.steps.find((step) => step.stepId === 'preprocess_multimodal')?.detail).toContain('kept unprocessed');
    const keptAgain = await bare.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' });
    expect(keptAgain).toMatchObject({ duplicate: true, resourceId: kept.resourceId, warnings: [{ reason: 'no_model' }] });

    const seeing = await engineWith({ model: mediaModel(whiteboard), mediaInputs: ['image'] }, store);
    const processed = await seeing.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' });
    expect(processed).toMatchObject({ duplicate: false, warnings: [] });
    expect(processed.itemIds.length).toBeGreaterThan(0);
    expect(await store.getResource(scope, kept.resourceId)).toBeUndefined();
    expect(await seeing.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' })).toMatchObject({ duplicate: true, resourceId: processed.resourceId, warnings: [] });
  });

  it('a profile whose model does not declare the media kind is not sent the file', async () => {
    const model = mediaModel(whiteboard);
    const engine = await engineWith({ model, mediaInputs: ['pdf'] });
    const result = await engine.memorize(scope, { type: 'resource', data: pngBytes(), mimeType: 'image/png' });
    expect(result.warnings).toEqual([expect.objectContaining({ reason: 'media_not_declared' })]);
    expect(model.doGenerateCalls.length).toBe(0);
  });

  it('a URI goes to the model as a URL part only when the profile opts in, only https, and the engine never fetches it', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('the engine must not fetch'));
    const uri = 'https://files.example/board.png';
    const closed = mediaModel(whiteboard);
    const notOpted = await (await engineWith({ model: closed, mediaInputs: ['image'] })).memorize(scope, { type: 'resource', uri, mimeType: 'image/png' });
    expect(notOpted.warnings).toEqual([expect.objectContaining({ reason: 'uri_not_allowed' })]);
    expect(closed.doGenerateCalls.length).toBe(0);

    const open = mediaModel(whiteboard);
    const engine = await engineWith({ model: open, mediaInputs: ['image'], mediaUrls: true });
    const read = await engine.memorize(scope, { type: 'resource', uri, mimeType: 'image/png' });
    expect(read.warnings).toEqual([]);
    expect(open.files).toEqual([{ mediaType: 'image/png', data: new URL(uri) }]);
    expect(read.itemIds.length).toBeGreaterThan(0);

    const plain = await engine.memorize(scope, { type: 'resource', uri: 'http://169.254.169.254/latest/meta-data', mimeType: 'image/png' });
    expect(plain.warnings).toEqual([expect.objectContaining({ reason: 'uri_not_allowed', message: expect.stringContaining('only https') })]);
    const unknown = await engine.memorize(scope, { type: 'resource', uri: 'https://files.example/x' });
    expect(unknown.warnings).toEqual([expect.objectContaining({ reason: 'media_type_unknown' })]);
    expect(open.doGenerateCalls.length).toBe(1);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a step that needs media_input is refused when its profile has no model that reads files', async () => {
    const engine = await engineWith({ model: mediaModel(whiteboard) });
    const step = { stepId: 'ocr_again', role: 'preprocess' as const, requires: ['resource'], produces: [], capabilities: ['media_input' as const], run: async () => undefined };
    await expect(engine.insertAfter('preprocess_multimodal', step)).rejects.toSatisfy(
      (error: unknown) => MemoryValidationError.isInstance(error) && error.issues.some((issue) => issue.message.includes('no model with mediaInputs')),
    );
  });
});
