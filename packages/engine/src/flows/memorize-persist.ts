import { MemoryConflictError } from '@memplane/core';
import { deriveIntention, intentionChanged, nextIntentionRow, type IntentionContent } from '../engine/intention-builder';
import { addToCategories } from '../engine/category-refresh';
import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep } from '../pipeline/pipeline-step';
import { embedTexts } from '../profiles/model-calls';
import { describeModel } from '../profiles/llm-profiles';
import type { ItemEvidence, ItemRow, ResourceRow, ScopeValues, SegmentRow } from '../store/engine-store-rows';
import { embeddingText } from './item-builder';
import type { MemorizeWarning } from './multimodal-preprocess';

type Step = PipelineStep<EngineServices>;

/** What memorize reports. */
export interface MemorizeResult {
  readonly resourceId: string;
  /** True when this content was already memorized in the scope under this pipeline revision: nothing was written. */
  readonly duplicate: boolean;
  readonly itemIds: readonly string[];
  /** Existing items the resource repeated; they gained evidence. */
  readonly reinforcedItemIds: readonly string[];
  /** The new intention version, when the intention changed. */
  readonly intentionVersion: number | undefined;
  readonly pipelineRevision: number;
  /** What was not done, such as a file kept unprocessed for want of a model that reads it. Empty when all was done. */
  readonly warnings: readonly MemorizeWarning[];
}

/** infer_intention: the scope's goals, constraints and progress, including the new items. */
export const inferIntentionStep: Step = {
  stepId: 'infer_intention',
  role: 'intention',
  requires: ['scope', 'newItems'],
  produces: ['intention'],
  capabilities: [],
  async run({ state, services }) {
    if (state.duplicateOf !== undefined) return;
    state.intention = await deriveIntention(services.store, services, state.scope as ScopeValues, state.newItems as ItemRow[]);
  },
};

function duplicateResult(resource: ResourceRow, services: EngineServices, warnings: readonly MemorizeWarning[]): MemorizeResult {
  return { resourceId: resource.id, duplicate: true, itemIds: [], reinforcedItemIds: [], intentionVersion: undefined, pipelineRevision: services.pipelineRevision, warnings };
}

/** persist_index: embeds the new items, then writes resource, items, evidence, categories and intention in one transaction. */
export const persistIndexStep: Step = {
  stepId: 'persist_index',
  role: 'persist',
  requires: ['scope', 'resource', 'segments', 'newItems', 'reinforced', 'intention'],
  produces: ['memorized'],
  capabilities: ['db_write'],
  optionalCapabilities: ['embedding'],
  async run({ state, services, signal, recordUsage, note }) {
    const scope = state.scope as ScopeValues;
    const duplicateOf = state.duplicateOf as ResourceRow | undefined;
    const warnings = (state.warnings as MemorizeWarning[] | undefined) ?? [];
    if (duplicateOf !== undefined) {
      state.memorized = duplicateResult(duplicateOf, services, warnings);
      return;
    }
    const resource = state.resource as ResourceRow;
    let items = state.newItems as ItemRow[];
    const reinforced = state.reinforced as Array<{ item: ItemRow; evidence: ItemEvidence[] }>;
    const profile = services.embeddingProfile;
    let vectors: Float32Array[] = [];
    if (profile !== undefined && services.vectorIndex !== undefined && items.length > 0) {
      const embedded = await embedTexts(profile, items.map(embeddingText), signal);
      recordUsage(embedded.usage);
      vectors = embedded.vectors;
      const model = describeModel(profile.embeddingModel);
      items = items.map((item) => ({ ...item, embeddingModel: model }));
    } else if (items.length > 0) {
      note('no embedding model or vector index: lexical recall only');
    }
    try {
      state.memorized = await services.store.transaction(async (tx) => {
        const superseded = state.supersedes as ResourceRow | undefined;
        if (superseded !== undefined) await tx.deleteResource(scope, superseded.id);
        await tx.insertResource(resource, state.segments as SegmentRow[]);
        await tx.insertItems(items);
        for (const { item, evidence } of reinforced) {
          const current = (await tx.getItems(scope, [item.id])).get(item.id);
          if (current === undefined) continue;
          // More evidence changes no count, anchor or summary: the categories stay as they are.
          await tx.updateItem(scope, item.id, current.version, { evidence: [...current.evidence, ...evidence].slice(-50), updatedAt: services.now() });
        }
        await addToCategories(tx, services, scope, items);
        const content = state.intention as IntentionContent | undefined;
        const latest = await tx.getLatestIntention(scope);
        let intentionVersion: number | undefined;
        if (content !== undefined && intentionChanged(latest, content)) {
          const row = nextIntentionRow(services, scope, latest, content);
          await tx.insertIntention(row);
          intentionVersion = row.version;
        }
        if (vectors.length > 0 && services.vectorIndex !== undefined) {
          await services.vectorIndex.upsert(items.map((item, index) => ({ itemId: item.id, scope, model: item.embeddingModel as string, vector: vectors[index] as Float32Array })));
        }
        const result: MemorizeResult = {
          resourceId: resource.id,
          duplicate: false,
          itemIds: items.map((item) => item.id),
          reinforcedItemIds: reinforced.map(({ item }) => item.id),
          intentionVersion,
          pipelineRevision: services.pipelineRevision,
          warnings,
        };
        return result;
      });
    } catch (error) {
      // A concurrent memorize of the same content won the unique (scope, hash, revision) index.
      if (!MemoryConflictError.isInstance(error)) throw error;
      const winner = await services.store.findResourceByHash(scope, resource.contentHash, services.pipelineRevision);
      if (winner === undefined) throw error;
      state.memorized = duplicateResult(winner, services, warnings);
    }
  },
};
