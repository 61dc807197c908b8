import { MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from './create-memory-engine';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';

const scope = { org: 'acme', project: 'apollo' };
const conversation = {
  type: 'conversation' as const,
  messages: [
    { role: 'user', content: 'My name is Jerry and I lead the platform team. I prefer concise answers.' },
    { role: 'assistant', content: 'Noted.' },
    { role: 'user', content: 'We decided to use Postgres with pgvector for production. Our goal is to ship the memory layer this quarter. Remember to review the HNSW settings.' },
  ],
};

describe('memory engine, zero-config', () => {
  it('memorizes a conversation into items with evidence, categories and an intention, then retrieves them', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const result = await engine.memorize(scope, conversation);
    expect(result.duplicate).toBe(false);
    expect(result.itemIds.length).toBeGreaterThanOrEqual(4);
    const items = [...(await engine.getItems(scope, result.itemIds)).values()];
    const decision = items.find((item) => item.text.includes('Postgres'));
    expect(decision?.kind).toBe('decision');
    expect(decision?.status).toBe('approved');
    expect(decision?.evidence[0]?.resourceId).toBe(result.resourceId);
    expect(decision?.scopeSchemaHash).toBe(engine.meta.scopeSchemaHash);
    expect(decision?.pipelineRevision).toBe(1);
    const todo = items.find((item) => item.kind === 'todo');
    expect(todo?.expiresAt).toBeDefined();
    const intention = await engine.getLatestIntention(scope);
    expect(intention?.goals.join(' ')).toContain('ship the memory layer');
    const categories = await engine.listCategories(scope);
    expect(categories.map((category) => category.key)).toContain('project');

    const found = await engine.retrieve(scope, 'which database did we choose for production?');
    expect(found.items[0]?.item.text).toContain('Postgres');
    expect(found.degraded).toContain('vector recall: no embedding model');
    const runs = await engine.listRuns();
    expect(runs.map((run) => run.flow)).toEqual(['retrieve', 'memorize']);
    expect(runs[1]?.steps.map((step) => step.stepId)).toEqual(['ingest_resource', 'preprocess_multimodal', 'extract_items', 'dedupe_merge', 'categorize_items', 'infer_intention', 'persist_index']);
    expect(runs[1]?.inputSummary).not.toContain('Jerry');
  });

  it('is idempotent on content and pipeline revision', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const first = await engine.memorize(scope, conversation);
    const second = await engine.memorize(scope, conversation);
    expect(second).toMatchObject({ duplicate: true, resourceId: first.resourceId, itemIds: [] });
    const both = await Promise.all([engine.memorize({ ...scope, project: 'b' }, conversation), engine.memorize({ ...scope, project: 'b' }, conversation)]);
    expect(both.filter((result) => !result.duplicate)).toHaveLength(1);
    await engine.config('extract_items', { note: 'new revision' });
    const third = await engine.memorize(scope, conversation);
    expect(third.duplicate).toBe(false);
    expect(third.itemIds).toEqual([]);
    expect(third.reinforcedItemIds.length).toBe(first.itemIds.length);
  });

  it('memorizes any content once per scope and revision (fast-check)', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), fc.constantFrom('p1', 'p2'), async (content, project) => {
        const target = { org: 'fc', project };
        const first = await engine.memorize(target, { type: 'resource', content });
        const count = (await engine.listItems({ org: 'fc', project }, {}, { limit: 1000 })).length;
        const again = await engine.memorize(target, { type: 'resource', content });
        expect(again.duplicate).toBe(true);
        expect(again.resourceId).toBe(first.resourceId);
        expect((await engine.listItems({ org: 'fc', project }, {}, { limit: 1000 })).length).toBe(count);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a write without a full scope, naming the field, and writes nothing', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const error = await engine.memorize({ org: 'acme' } as never, conversation).catch((caught: unknown) => caught);
    expect(MemoryValidationError.isInstance(error) && error.field).toBe('scope.project');
    const extra = await engine.memorize({ ...scope, tenant: 'x' } as never, conversation).catch((caught: unknown) => caught);
    expect(MemoryValidationError.isInstance(extra) && extra.field).toBe('scope.tenant');
    expect(await engine.listRuns()).toEqual([]);
  });
});
