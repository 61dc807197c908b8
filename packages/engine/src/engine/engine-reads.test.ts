import { describe, expect, it } from 'vitest';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { createMemoryEngine } from './create-memory-engine';

const scope = { org: 'acme', project: 'apollo' };

describe('resources, categories and reads', () => {
  it('keeps the page of paged documents as evidence, and metadata and origin on every item', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const origin = { kind: 'external_document', companyId: 'acme', externalRef: 'handbook.pdf' };
    const result = await engine.memorize(scope, { type: 'resource', pages: ['Intro page with nothing much.', 'We decided to rotate keys every 90 days.'], metadata: { source: 'handbook' }, origin });
    const items = [...(await engine.getItems(scope, result.itemIds)).values()];
    const rotation = items.find((item) => item.text.includes('rotate keys'));
    expect(rotation?.evidence[0]?.page).toBe(2);
    expect(rotation?.metadata).toEqual({ source: 'handbook' });
    expect(rotation?.origin).toEqual(origin);
  });

  it('stores a URI-only resource without extracting anything, and says why in the run log', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const result = await engine.memorize(scope, { type: 'resource', uri: 'https://files.example.com/recording.mp3', mimeType: 'audio/mpeg' });
    expect(result).toMatchObject({ duplicate: false, itemIds: [], warnings: [{ code: 'media.unprocessed', reason: 'no_model' }] });
    const [run] = await engine.listRuns();
    expect(run?.steps.find((step) => step.stepId === 'preprocess_multimodal')?.detail).toContain('kept unprocessed');
  });

  it('lists categories in taxonomy order with counts, anchors, summaries and items as asked', async () => {
    const engine = await createMemoryEngine({
      scope: orgProjectScope,
      categories: [
        { key: 'infra', name: 'Infrastructure', description: 'Servers and deploys.', keywords: ['deploy', 'server'] },
        { key: 'people', name: 'People', description: 'Who is who.', kinds: ['profile', 'preference'] },
      ],
      now: steppingClock(),
    });
    await engine.writeItems(scope, [{ text: 'Deploys go through the blue server.' }, { text: 'Jerry prefers short answers.', kind: 'preference' }, { text: 'Server logs rotate daily.' }]);
    const categories = await engine.listCategories(scope, { includeItems: 10 });
    expect(categories.map((category) => [category.key, category.itemCount, category.anchorItemIds.length])).toEqual([['infra', 2, 2], ['people', 1, 1]]);
    expect(categories[0]?.items?.map((item) => item.text)).toEqual(['Deploys go through the blue server.', 'Server logs rotate daily.']);
    expect(categories[0]?.summary).toContain('blue server');
    expect((await engine.getCategory(scope, 'people', { includeSummary: false }))?.summary).toBeUndefined();
    expect(await engine.getCategory(scope, 'missing')).toBeUndefined();
    expect(await engine.listCategories({ org: 'other', project: 'apollo' })).toEqual([]);
  });
});
