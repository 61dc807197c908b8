import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../store/memory/memory-store';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { createMemoryEngine } from './create-memory-engine';

const scope = { org: 'acme', project: 'apollo' };
const secret = 'Our goal is to reach the Zanzibar milestone by spring.';

describe('forget', () => {
  it('removes the item, its resource, the intentions and category summaries that held its text', async () => {
    const store = createInMemoryStore();
    const engine = await createMemoryEngine({ scope: orgProjectScope, store, now: steppingClock() });
    const memorized = await engine.memorize(scope, { type: 'resource', content: `${secret}\nWe decided to ship on Fridays.` });
    const items = [...(await engine.getItems(scope, memorized.itemIds)).values()];
    const goal = items.find((item) => item.text === secret);
    expect(goal?.kind).toBe('goal');
    expect((await engine.getLatestIntention(scope))?.goals).toContain(secret);
    expect(JSON.stringify(await engine.listCategories(scope))).toContain('Zanzibar');

    expect(await engine.forget(scope, [goal?.id as string])).toEqual([goal?.id]);

    const everything = JSON.stringify({
      resource: await store.getResource(scope, memorized.resourceId),
      segments: await store.getSegments(scope, memorized.resourceId),
      items: await store.listItems({ org: ['acme'] }, { excludeMerged: false }, { limit: 1000 }),
      intentions: await store.listLatestIntentions({ org: ['acme'] }),
      latest: await engine.getLatestIntention(scope),
      categories: await engine.listCategories(scope),
      runs: await engine.listRuns(),
    });
    expect(everything).not.toContain('Zanzibar');
    expect((await engine.retrieve(scope, 'Zanzibar milestone')).items).toEqual([]);
    // The other item stays retrievable.
    expect((await engine.retrieve(scope, 'when do we ship?')).items[0]?.item.text).toContain('Fridays');
  });

  it('does not reach into another scope', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const [item] = await engine.writeItems(scope, [{ text: 'The staging cluster lives in eu-west-1.' }]);
    expect(await engine.forget({ org: 'other', project: 'apollo' }, [item?.id as string])).toEqual([]);
    expect((await engine.getItems(scope, [item?.id as string])).size).toBe(1);
  });
});
