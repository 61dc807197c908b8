import { MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { steppingClock } from '../testing/engine-fixtures';
import { createMemoryEngine } from './create-memory-engine';

const unicodeScope = z.object({ tenant: z.string().min(1).max(100) });

describe('Unicode', () => {
  it('memorizes and retrieves text in several scripts, keeping evidence spans exact', async () => {
    const engine = await createMemoryEngine({ scope: unicodeScope, now: steppingClock() });
    const content = 'Nous avons décidé de déployer le mardi. 我们决定使用 PostgreSQL 作为主数据库。 The café team prefers naïve Bayes 🚀 models.';
    const result = await engine.memorize({ tenant: 'société-東京' }, { type: 'resource', content });
    const items = [...(await engine.getItems({ tenant: 'société-東京' }, result.itemIds)).values()];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const evidence = item.evidence[0];
      if (evidence?.start !== undefined && evidence.end !== undefined) expect(content.slice(evidence.start, evidence.end)).toBe(evidence.quote);
    }
    expect((await engine.retrieve({ tenant: 'société-東京' }, 'décidé déployer')).items[0]?.item.text).toContain('mardi');
    expect((await engine.retrieve({ tenant: 'société-東京' }, 'CAFÉ naïve')).items[0]?.item.text).toContain('🚀');
    // NFKC folds compatibility forms: the full-width query finds the ASCII text.
    expect((await engine.retrieve({ tenant: 'société-東京' }, 'ｃａｆé')).items[0]?.item.text).toContain('café');
  });

  it('refuses lone surrogates in content, queries and curated items, writing nothing', async () => {
    const engine = await createMemoryEngine({ scope: unicodeScope, now: steppingClock() });
    const broken = 'half a pair \ud83d here';
    for (const attempt of [
      engine.memorize({ tenant: 't' }, { type: 'resource', content: broken }),
      engine.memorize({ tenant: 't' }, { type: 'conversation', messages: [{ role: 'user', content: broken }] }),
      engine.writeItems({ tenant: 't' }, [{ text: broken }]),
      engine.retrieve({ tenant: 't' }, broken),
    ]) {
      await expect(attempt).rejects.toSatisfy((error: unknown) => MemoryValidationError.isInstance(error));
    }
    expect(await engine.listItems({ tenant: 't' }, {}, { limit: 10 })).toEqual([]);
  });

  it('round-trips any well-formed text through a curated write (fast-check)', async () => {
    const engine = await createMemoryEngine({ scope: unicodeScope, now: steppingClock() });
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), async (text) => {
        const [item] = await engine.writeItems({ tenant: 'fc' }, [{ text }]);
        expect((await engine.getItems({ tenant: 'fc' }, [item?.id as string])).get(item?.id as string)?.text).toBe(text);
      }),
      { numRuns: 100 },
    );
  });
});
