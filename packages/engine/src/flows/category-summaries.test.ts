import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import type { LlmProfile } from '../profiles/llm-profiles';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { failingModel, hangingModel, mediaModel } from '../testing/multimodal-fixtures';

const scope = { org: 'acme', project: 'apollo' };
const decisions = ['We decided to use Postgres for production.', 'We decided to ship on Fridays.', 'We decided to keep the API versioned.'].join('\n');
const modelSummary = 'Project decisions: Postgres in production, Friday releases, a versioned API.';

async function engineWith(summarizer: LlmProfile | undefined) {
  const engine = await createMemoryEngine({
    scope: orgProjectScope,
    profiles: summarizer === undefined ? { default: {} } : { default: {}, summaries: summarizer },
    roleProfiles: summarizer === undefined ? {} : { cluster: 'summaries' },
    now: steppingClock(),
  });
  await engine.memorize(scope, { type: 'resource', content: decisions });
  return engine;
}

const projectSummary = async (engine: Awaited<ReturnType<typeof engineWith>>) => (await engine.getCategory(scope, 'project'))?.summary;
const stepDetail = async (engine: Awaited<ReturnType<typeof engineWith>>) => (await engine.listRuns({ flow: 'evolve' }))[0]?.steps.find((step) => step.stepId === 'summarize_categories')?.detail;

describe('category summaries', () => {
  it('zero-config: the summary is the anchors\' texts and evolve says so', async () => {
    const engine = await engineWith(undefined);
    const before = await projectSummary(engine);
    expect(before).toContain('Postgres');
    const diff = await engine.evolve(scope);
    expect(diff.categorySummaries).toEqual({ summarized: [], degraded: [] });
    expect(await projectSummary(engine)).toBe(before);
    expect(await stepDetail(engine)).toContain('no model');
  });

  it('evolve summarises the anchors with the cluster profile model, bounded, once per set of anchors; usage is logged', async () => {
    const model = mediaModel({ summary: modelSummary }, 'mock-summaries');
    const engine = await engineWith({ model });
    const diff = await engine.evolve(scope);
    expect(diff.categorySummaries.summarized).toContain('project');
    expect(await projectSummary(engine)).toBe(modelSummary);
    const calls = model.doGenerateCalls.length;
    const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain('We decided to use Postgres for production.');
    const [run] = await engine.listRuns({ flow: 'evolve' });
    expect(run?.llmUsage).toContainEqual(expect.objectContaining({ stepId: 'summarize_categories', profile: 'summaries', model: 'mock-provider:mock-summaries', inputTokens: 1200, outputTokens: 40 }));

    // The same anchors: no new call.
    await engine.evolve(scope);
    expect(model.doGenerateCalls.length).toBe(calls);
    // A new decision that does not outrank the anchors keeps the model's summary.
    await engine.memorize(scope, { type: 'resource', content: 'We decided to name the service Apollo.' });
    expect(await projectSummary(engine)).toBe(modelSummary);
  });

  it('forgetting an anchor replaces the model summary: none of its text outlives it', async () => {
    const engine = await engineWith({ model: mediaModel({ summary: `${modelSummary} Postgres was chosen.` }) });
    await engine.evolve(scope);
    const postgres = (await engine.listItems(scope, {}, { limit: 10 })).find((item) => item.text.includes('Postgres'));
    await engine.forget(scope, [postgres?.id as string]);
    const after = await projectSummary(engine);
    expect(after).not.toContain('Postgres');
    expect(after).toContain('Fridays');
  });

  it('bounds the input: long anchors are cut to maxInputChars', async () => {
    const model = mediaModel({ summary: 'Long decisions.' });
    const engine = await createMemoryEngine({ scope: orgProjectScope, profiles: { default: {}, summaries: { model } }, roleProfiles: { cluster: 'summaries' }, now: steppingClock() });
    await engine.config('summarize_categories', { maxInputChars: 300 });
    await engine.memorize(scope, { type: 'resource', content: `We decided that ${'the build is long '.repeat(300)}.` });
    await engine.evolve(scope);
    const sent = model.doGenerateCalls[0]?.prompt.map((message) => JSON.stringify(message.content)).join('') ?? '';
    expect(sent.length).toBeLessThan(2500);
    expect(sent).not.toContain('the build is long '.repeat(30));
  });

  const hostile: Array<[string, LlmProfile]> = [
    ['a provider that fails', { model: failingModel(), maxRetries: 0 }],
    ['a model that hangs past the profile timeout', { model: hangingModel(), timeoutMs: 25, maxRetries: 0 }],
    ['garbage instead of JSON', { model: mediaModel('Sure! Here is a summary: <<<'), maxRetries: 0 }],
    ['a summary over the bound', { model: mediaModel({ summary: 'x'.repeat(601) }), maxRetries: 0 }],
    ['a summary holding raw PII', { model: mediaModel({ summary: 'Decisions; call Jerry at jerry@example.com or +1 415 555 0100.' }), maxRetries: 0 }],
  ];
  it.each(hostile)('%s: evolve succeeds, the summary stays the anchors\' texts, the diff and the run log say why', async (_, profile) => {
    const engine = await engineWith(profile);
    const before = await projectSummary(engine);
    const diff = await engine.evolve(scope);
    expect(diff.categorySummaries.degraded).toContain('project');
    expect(diff.categorySummaries.summarized).toEqual([]);
    expect(await projectSummary(engine)).toBe(before);
    expect(await stepDetail(engine)).toMatch(/project: .*kept the anchors' texts/);
    expect((await engine.listRuns({ flow: 'evolve' }))[0]?.status).toBe('ok');
  });

  it('a dry run asks no model and writes no summary', async () => {
    const model = mediaModel({ summary: modelSummary });
    const engine = await engineWith({ model });
    const diff = await engine.evolve(scope, { dryRun: true });
    expect(diff.categorySummaries).toEqual({ summarized: [], degraded: [] });
    expect(model.doGenerateCalls).toEqual([]);
    expect(await projectSummary(engine)).not.toBe(modelSummary);
  });

  it('a summary is not written over anchors that changed while the model was thinking', async () => {
    let forgetDuringCall: (() => Promise<unknown>) | undefined;
    const model = new MockLanguageModelV3({
      provider: 'mock-provider',
      modelId: 'mock-slow',
      doGenerate: async () => {
        await forgetDuringCall?.();
        return { content: [{ type: 'text', text: JSON.stringify({ summary: `${modelSummary} Postgres.` }) }], finishReason: { unified: 'stop', raw: undefined }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } }, warnings: [] };
      },
    });
    const engine = await engineWith({ model });
    const postgres = (await engine.listItems(scope, {}, { limit: 10 })).find((item) => item.text.includes('Postgres'));
    forgetDuringCall = () => engine.forget(scope, [postgres?.id as string]);
    const diff = await engine.evolve(scope);
    expect(diff.categorySummaries.summarized).not.toContain('project');
    expect(await projectSummary(engine)).not.toContain('Postgres');
    expect(await stepDetail(engine)).toContain('project: anchors changed meanwhile');
  });
});
