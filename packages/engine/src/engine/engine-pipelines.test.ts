import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { PipelineStep } from '../pipeline/pipeline-step';
import { createInMemoryStore } from '../store/memory/memory-store';
import type { ItemRow } from '../store/engine-store-rows';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { createMemoryEngine } from './create-memory-engine';
import type { EngineServices } from './engine-services';

const scope = { org: 'acme', project: 'apollo' };

/** A user step that tags every new item, placed after extraction. */
const tagStep: PipelineStep<EngineServices> = {
  stepId: 'tag_items',
  role: 'custom',
  requires: ['newItems'],
  produces: ['newItems'],
  capabilities: [],
  async run({ state, config }) {
    state.newItems = (state.newItems as ItemRow[]).map((item) => ({ ...item, metadata: { ...item.metadata, tag: config.tag ?? 'none' } }));
  },
};

async function refusal(work: Promise<unknown>): Promise<MemoryValidationError> {
  const error = await work.catch((caught: unknown) => caught);
  if (!MemoryValidationError.isInstance(error)) throw new Error(`expected a validation error, got ${String(error)}`);
  return error;
}

describe('pipeline editing (§8.3, §8.4)', () => {
  it('inserts a user step, configures it, records each change as a revision, and rolls back', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    expect(engine.describePipelines().revision).toBe(1);
    await engine.insertAfter('dedupe_merge', tagStep);
    await engine.config('tag_items', { tag: 'blue' });
    expect(engine.describePipelines()).toMatchObject({ revision: 3, flows: { memorize: ['ingest_resource', 'preprocess_multimodal', 'extract_items', 'dedupe_merge', 'tag_items', 'categorize_items', 'infer_intention', 'persist_index'] } });
    const tagged = await engine.memorize(scope, { type: 'resource', content: 'We decided to deploy on Tuesdays.' });
    expect([...(await engine.getItems(scope, tagged.itemIds)).values()].map((item) => [item.metadata.tag, item.pipelineRevision])).toEqual([['blue', 3]]);

    await engine.rollback(1);
    expect(engine.describePipelines().revision).toBe(4);
    expect(engine.describePipelines().flows.memorize).not.toContain('tag_items');
    const revisions = await engine.listPipelineRevisions();
    expect(revisions.map((row) => row.change)).toEqual(['defaults', 'insert_after dedupe_merge tag_items', 'config tag_items {"tag":"blue"}', 'rollback to 1']);
    expect(revisions[3]?.definitionHash).toBe(revisions[0]?.definitionHash);
  });

  it('refuses invalid changes and keeps the current revision', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    expect((await refusal(engine.remove('persist_index'))).issues.map((issue) => issue.path)).toContain('memorize.memorized');
    expect((await refusal(engine.insertBefore('dedupe_merge', tagStep))).field).toBe('memorize.tag_items.requires.newItems');
    expect((await refusal(engine.config('extract_items', { llmProfile: 'missing' }))).field).toBe('memorize.extract_items.config.llmProfile');
    expect((await refusal(engine.config('extract_items', { retries: -1 }))).field).toBe('memorize.extract_items.config.retries');
    expect((await refusal(engine.insertAfter('extract_items', { ...tagStep, stepId: 'extract_items' }))).issues[0]?.message).toContain('used twice');
    expect((await refusal(engine.insertAfter('extract_items', { ...tagStep, stepId: 'Bad Id' }))).issues[0]?.message).toContain('lowercase');
    expect((await refusal(engine.insertAfter('nowhere', tagStep))).field).toBe('stepId');
    const needsModel: PipelineStep<EngineServices> = { ...tagStep, stepId: 'llm_step', capabilities: ['llm'] };
    expect((await refusal(engine.insertAfter('dedupe_merge', needsModel))).issues[0]?.message).toContain('has no model');
    const needsVectors: PipelineStep<EngineServices> = { ...tagStep, stepId: 'vector_step', capabilities: ['embedding'] };
    expect((await refusal(engine.insertAfter('dedupe_merge', needsVectors))).issues[0]?.message).toContain('no embedding model');
    expect(engine.describePipelines().revision).toBe(1);
    expect(await engine.listPipelineRevisions()).toHaveLength(1);
  });

  it('restores the latest revision after a restart, and refuses to start without its user steps', async () => {
    const store = createInMemoryStore();
    const first = await createMemoryEngine({ scope: orgProjectScope, store, now: steppingClock() });
    await first.insertAfter('dedupe_merge', tagStep);
    await expect(createMemoryEngine({ scope: orgProjectScope, store })).rejects.toThrow(MemoryConfigurationError);
    const second = await createMemoryEngine({ scope: orgProjectScope, store, steps: [tagStep] });
    expect(second.describePipelines()).toMatchObject({ revision: 2 });
    expect(second.describePipelines().flows.memorize).toContain('tag_items');
  });

  it('refuses to open a store provisioned for another scope schema, and validate mode on an empty store', async () => {
    const store = createInMemoryStore();
    await createMemoryEngine({ scope: orgProjectScope, store });
    await expect(createMemoryEngine({ scope: orgProjectScope.extend({ team: orgProjectScope.shape.org }), store })).rejects.toThrow(/scope schema does not match/);
    await expect(createMemoryEngine({ scope: orgProjectScope, store: createInMemoryStore(), ddlMode: 'validate' })).rejects.toThrow(MemoryConfigurationError);
  });

  it('logs a failing user step as a failed run and throws a MemoryError', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    await engine.insertAfter('dedupe_merge', { ...tagStep, stepId: 'broken', run: async () => { throw new TypeError('boom'); } });
    await expect(engine.memorize(scope, { type: 'resource', content: 'We decided to deploy on Tuesdays.' })).rejects.toMatchObject({ code: 'MEMORY_API_CALL' });
    const [run] = await engine.listRuns();
    expect(run).toMatchObject({ status: 'failed', failures: ['boom'] });
    expect(run?.steps.at(-1)).toMatchObject({ stepId: 'broken', status: 'failed' });
    expect((await engine.listCategories(scope)).every((category) => category.itemCount === 0)).toBe(true);
  });
});
