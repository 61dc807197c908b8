import { MemoryConfigurationError, MemoryInvalidResponseError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { letterCountEmbedder, scriptedJsonModel } from '../testing/mock-models';
import { profileNameFor, resolveProfiles } from './llm-profiles';

const scope = { org: 'acme', project: 'apollo' };
const conversation = { type: 'conversation' as const, messages: [{ role: 'user', content: 'Ping me at jerry@example.com. We use Rust for the indexer.' }] };

describe('LLM profiles (§4.2)', () => {
  it('requires default, checks every setting by name', () => {
    expect(() => resolveProfiles({ fast: {} } as never)).toThrow(/"default" profile is required/);
    expect(() => resolveProfiles({ default: { temperature: 3 } })).toThrow(/default.temperature/);
    expect(() => resolveProfiles({ default: { structuredOutput: 'xml' as never } })).toThrow(MemoryConfigurationError);
    expect(() => resolveProfiles({ default: {}, 'Bad Name': {} })).toThrow(/must be lowercase/);
    expect(() => resolveProfiles({ default: { mediaInputs: ['video' as never] } })).toThrow(/default.mediaInputs/);
    expect(() => resolveProfiles({ default: { mediaUrls: 'yes' as never } })).toThrow(/default.mediaUrls/);
    expect(resolveProfiles(undefined).get('default')).toMatchObject({ temperature: 0, maxOutputTokens: 1024, timeoutMs: 30_000, maxRetries: 2, structuredOutput: 'object', mediaInputs: [], mediaUrls: false });
  });

  it('resolves a step profile by precedence: step config, then role mapping, then default', () => {
    expect(profileNameFor({ llmProfile: 'precise' }, 'extract', { extract: 'cheap' })).toBe('precise');
    expect(profileNameFor({}, 'extract', { extract: 'cheap' })).toBe('cheap');
    expect(profileNameFor({}, 'verify', { extract: 'cheap' })).toBe('default');
  });

  it('extracts with the step profile model, applies the taxonomy to its answer and logs usage', async () => {
    const extractor = scriptedJsonModel([
      {
        items: [
          { kind: 'fact', text: 'The indexer is written in Rust.', confidence: 0.9, segment: 0, quote: 'We use Rust for the indexer.' },
          { kind: 'profile', text: 'Jerry can be reached at jerry@example.com.', confidence: 0.95, segment: 0, quote: 'Ping me at jerry@example.com.' },
          { kind: 'profile', text: 'Jerry might be a manager.', confidence: 0.5, segment: 0 },
        ],
      },
    ]);
    const engine = await createMemoryEngine({
      scope: orgProjectScope,
      profiles: { default: {}, extraction: { model: extractor, temperature: 0.2 } },
      roleProfiles: { extract: 'extraction' },
      now: steppingClock(),
    });
    const result = await engine.memorize(scope, conversation);
    const items = [...(await engine.getItems(scope, result.itemIds)).values()];
    expect(items.map((item) => [item.kind, item.status, item.piiRisk])).toEqual([
      ['fact', 'approved', 0],
      ['profile', 'pending', 2],
    ]);
    // A quote holding raw PII is not kept as evidence.
    expect(items[1]?.evidence[0]?.quote).toBeUndefined();
    const [run] = await engine.listRuns();
    expect(run?.llmUsage).toEqual([expect.objectContaining({ stepId: 'extract_items', profile: 'extraction', model: 'mock-provider:mock-json', inputTokens: 12, outputTokens: 7 })]);
    // Pending items are not retrieved.
    expect((await engine.retrieve(scope, 'how to reach Jerry')).items.map((entry) => entry.item.kind)).not.toContain('profile');
  });

  it('fails the run with a typed error when the model answers off-schema, writing nothing', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, profiles: { default: { model: scriptedJsonModel([{ nonsense: true }]), maxRetries: 0 } }, now: steppingClock() });
    await expect(engine.memorize(scope, conversation)).rejects.toSatisfy((error: unknown) => MemoryInvalidResponseError.isInstance(error));
    const [run] = await engine.listRuns();
    expect(run?.status).toBe('failed');
    expect((await engine.listItems({ org: 'acme', project: 'apollo' }, {}, { limit: 10 }))).toEqual([]);
  });

  it('embeds items and queries with the embedding profile and fuses vector and lexical recall', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, profiles: { default: { embeddingModel: letterCountEmbedder() } }, now: steppingClock() });
    await engine.writeItems(scope, [{ text: 'zzz quartz jazz' }, { text: 'The build uses esbuild.' }]);
    const result = await engine.retrieve(scope, 'jazz quartz zzz?');
    expect(result.items[0]).toMatchObject({ item: { text: 'zzz quartz jazz' }, lexicalRank: 1, vectorRank: 1 });
    expect(result.degraded).toEqual([]);
    const [retrieveRun] = await engine.listRuns({ flow: 'retrieve' });
    expect(retrieveRun?.llmUsage[0]).toMatchObject({ stepId: 'recall_items', model: 'mock-provider:letters', inputTokens: 1, outputTokens: undefined });
  });

  it('categorizes with the categorize profile, dropping invented keys and falling back to the rules', async () => {
    const categorizer = scriptedJsonModel([{ assignments: [{ item: 0, categories: ['people', 'invented'] }, { item: 1, categories: ['nonsense'] }] }]);
    const engine = await createMemoryEngine({
      scope: orgProjectScope,
      categories: [
        { key: 'people', name: 'People', description: 'Who is who.' },
        { key: 'infra', name: 'Infrastructure', description: 'Servers.', kinds: ['decision'] },
      ],
      profiles: { default: {}, cat: { model: categorizer } },
      roleProfiles: { categorize: 'cat' },
      now: steppingClock(),
    });
    const result = await engine.memorize(scope, { type: 'resource', content: 'Jerry leads the platform team today.\nWe decided to move the servers to Frankfurt.' });
    const items = [...(await engine.getItems(scope, result.itemIds)).values()];
    expect(items.map((item) => item.categoryKeys)).toEqual([['people'], ['infra']]);
    expect(categorizer.prompts[0]).toContain('Infrastructure');
  });

  it('stops at the intention layer when the sufficiency check says so', async () => {
    const judge = scriptedJsonModel([{ sufficient: true }]);
    const engine = await createMemoryEngine({ scope: orgProjectScope, profiles: { default: {}, judge: { model: judge } }, roleProfiles: { sufficiency: 'judge' }, now: steppingClock() });
    await engine.memorize(scope, { type: 'resource', content: 'Our goal is to ship the engine this quarter.' });
    const result = await engine.retrieve(scope, 'what is our goal?');
    expect(result.stoppedAt).toBe('intention');
    expect(result.items).toEqual([]);
    expect(result.intentions[0]?.goals).toEqual(['Our goal is to ship the engine this quarter.']);
    expect(judge.prompts[0]).toContain('ship the engine');
    const unchecked = await engine.retrieve(scope, 'what is our goal?', { sufficiencyChecks: false });
    expect(unchecked.stoppedAt).toBe('item');
    expect(unchecked.items[0]?.item.text).toBe('Our goal is to ship the engine this quarter.');
    expect(judge.prompts).toHaveLength(1);
  });
});
