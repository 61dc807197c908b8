import { MemoryError } from '@memplane/core';
import { fuseByReciprocalRank, queryTerms, reciprocalRankConstant } from '@memplane/rules';
import { z } from 'zod';
import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep } from '../pipeline/pipeline-step';
import { describeModel } from '../profiles/llm-profiles';
import { embedTexts, generateStructured } from '../profiles/model-calls';
import type { ItemFilter } from '../store/engine-store';
import type { CategoryRow, IntentionRow, ItemRow, ScopeRange } from '../store/engine-store-rows';
import { itemPassesFilter, scopeKey } from '../store/row-filters';
import { effectiveStability } from '../taxonomy/item-governance';
import type { ResolvedRetrieveOptions } from './retrieve-options';
import type { RetrievalLayer } from './retrieve-routing';

type Step = PipelineStep<EngineServices>;

/** One retrieved item and how it was found. */
export interface RetrievedItem {
  readonly item: ItemRow;
  /** The fused score, higher is better (reciprocal rank fusion, category and stability weighted). */
  readonly score: number;
  readonly lexicalRank: number | undefined;
  readonly vectorRank: number | undefined;
}

/** What retrieve returns. */
export interface RetrieveResult {
  readonly items: readonly RetrievedItem[];
  readonly categories: readonly CategoryRow[];
  readonly intentions: readonly IntentionRow[];
  /** The layer at which retrieval stopped (a sufficiency check or the depth option). */
  readonly stoppedAt: RetrievalLayer;
  /** What was missing or failed and was done without, such as vector recall. */
  readonly degraded: readonly string[];
}

function filterOf(options: ResolvedRetrieveOptions, now: string): ItemFilter {
  return { statuses: options.includePending ? ['approved', 'pending'] : ['approved'], kinds: options.kinds, notExpiredAt: now, excludeMerged: true, metadataEquals: options.metadataEquals };
}

/**
 * How much the best neighbour window adds to an item's own BM25: `recall_items` config
 * `windowWeight`, default 3 (tuned on the LoCoMo dev half with windows of 4 items every 2; 0
 * turns windows off). Anything but a finite number from 0 up is the default.
 */
function windowWeightOf(config: Readonly<Record<string, unknown>>): number {
  const weight = config.windowWeight;
  return typeof weight === 'number' && Number.isFinite(weight) && weight >= 0 ? weight : 3;
}

/** recall_items: lexical and vector candidates within the caps, fused by reciprocal rank. */
export const recallItemsStep: Step = {
  stepId: 'recall_items',
  role: 'recall',
  requires: ['scopeRange', 'query', 'options', 'routedCategoryKeys'],
  produces: ['candidates', 'degraded'],
  capabilities: [],
  optionalCapabilities: ['embedding', 'vector_search'],
  async run({ state, services, config, signal, recordUsage }) {
    const degraded: string[] = [];
    state.degraded = degraded;
    state.candidates = [];
    if (state.stopAt !== undefined) return;
    const options = state.options as ResolvedRetrieveOptions;
    const range = state.scopeRange as ScopeRange;
    const now = services.now();
    const filter = filterOf(options, now);
    const terms = queryTerms(String(state.query));
    const lexical = await services.store.searchLexical({ range, terms, filter, windowWeight: windowWeightOf(config), limit: options.lexicalLimit });
    const byId = new Map(lexical.map((hit) => [hit.item.id, hit.item]));
    let vectorRanked: Array<{ id: string; score: number }> = [];
    const profile = services.embeddingProfile;
    if (profile === undefined || services.vectorIndex === undefined) {
      degraded.push(profile === undefined ? 'vector recall: no embedding model' : 'vector recall: no vector index');
    } else {
      try {
        const { vectors, usage } = await embedTexts(profile, [String(state.query)], signal);
        recordUsage(usage);
        const hits = await services.vectorIndex.search({ range, model: describeModel(profile.embeddingModel), vector: vectors[0] as Float32Array, limit: options.vectorLimit });
        const byScope = new Map<string, { scope: ItemRow['scope']; ids: string[] }>();
        for (const hit of hits) {
          const entry = byScope.get(scopeKey(hit.scope)) ?? { scope: hit.scope, ids: [] };
          entry.ids.push(hit.itemId);
          byScope.set(scopeKey(hit.scope), entry);
        }
        for (const { scope, ids } of byScope.values()) for (const [id, item] of await services.store.getItems(scope, ids)) byId.set(id, item);
        // Vector hits are re-checked against the store: status, kind, expiry and scope come from the row, never the index.
        vectorRanked = hits.filter((hit) => { const item = byId.get(hit.itemId); return item !== undefined && itemPassesFilter(item, filter); }).map((hit) => ({ id: hit.itemId, score: hit.similarity }));
      } catch (error) {
        if (!MemoryError.isInstance(error)) throw error;
        degraded.push(`vector recall failed (${error.code}): lexical only`);
      }
    }
    const lexicalRanked = lexical.map((hit) => ({ id: hit.item.id, score: hit.score }));
    const fused = fuseByReciprocalRank(lexicalRanked, vectorRanked);
    const routed = new Set(state.routedCategoryKeys as string[]);
    const lexicalRank = new Map(lexicalRanked.map((entry, index) => [entry.id, index + 1]));
    const vectorRank = new Map(vectorRanked.map((entry, index) => [entry.id, index + 1]));
    const candidates: RetrievedItem[] = [];
    for (const [id, base] of fused) {
      const item = byId.get(id);
      if (item === undefined) continue;
      if (options.categories !== undefined && !item.categoryKeys.some((key) => options.categories?.includes(key))) continue;
      // Routed categories nudge (a tenth of a top rank); decay weighs only what has decayed, never a kind as such.
      const categoryBoost = item.categoryKeys.some((key) => routed.has(key)) ? 0.1 / (reciprocalRankConstant + 1) : 0;
      const decay = item.stability > 0 ? effectiveStability(item, now) / item.stability : 1;
      const score = (base + categoryBoost) * (0.75 + 0.25 * decay);
      candidates.push({ item, score, lexicalRank: lexicalRank.get(id), vectorRank: vectorRank.get(id) });
    }
    candidates.sort((left, right) => right.score - left.score || (left.item.id < right.item.id ? -1 : 1));
    state.candidates = candidates;
  },
};

const rerankSchema = z.object({ ids: z.array(z.string()).max(200) });

/** verify_rerank: the profile's model orders the top candidates (within the rerank cap); without one, order stands. */
export const verifyRerankStep: Step = {
  stepId: 'verify_rerank',
  role: 'verify',
  requires: ['query', 'candidates', 'options'],
  produces: ['ranked'],
  capabilities: [],
  optionalCapabilities: ['llm'],
  async run({ state, services, profileName, signal, recordUsage }) {
    const candidates = state.candidates as RetrievedItem[];
    const profile = services.profiles.get(profileName);
    const options = state.options as ResolvedRetrieveOptions;
    if (profile?.model === undefined || candidates.length < 2) {
      state.ranked = candidates;
      return;
    }
    const head = candidates.slice(0, options.rerankLimit);
    const { value, usage } = await generateStructured(profile, {
      schema: rerankSchema,
      system: 'Order the memory items by how well they answer the query. Answer {"ids": [...]} with the ids of relevant items, best first.',
      prompt: `Query: ${String(state.query)}\n\n${head.map((entry) => `${entry.item.id}: ${entry.item.text}`).join('\n')}`,
      signal,
      operation: 'verify_rerank',
    });
    recordUsage(usage);
    const byId = new Map(head.map((entry) => [entry.item.id, entry]));
    const chosen = [...new Set(value.ids)].flatMap((id) => { const entry = byId.get(id); return entry === undefined ? [] : [entry]; });
    const rest = head.filter((entry) => !chosen.includes(entry));
    state.ranked = [...chosen, ...rest, ...candidates.slice(options.rerankLimit)];
  },
};

/** build_context: the top items with categories and intentions; returned items count as used (fact decay). */
export const buildContextStep: Step = {
  stepId: 'build_context',
  role: 'build_context',
  requires: ['ranked', 'categories', 'intentions', 'options', 'degraded'],
  produces: ['context'],
  capabilities: ['db_write'],
  async run({ state, services }) {
    const options = state.options as ResolvedRetrieveOptions;
    const items = (state.ranked as RetrievedItem[]).slice(0, options.topK);
    const byScope = new Map<string, { scope: ItemRow['scope']; ids: string[] }>();
    for (const { item } of items) {
      const entry = byScope.get(scopeKey(item.scope)) ?? { scope: item.scope, ids: [] };
      entry.ids.push(item.id);
      byScope.set(scopeKey(item.scope), entry);
    }
    const now = services.now();
    for (const { scope, ids } of byScope.values()) await services.store.recordItemUse(scope, ids, now);
    const result: RetrieveResult = {
      items,
      categories: state.categories as CategoryRow[],
      intentions: state.intentions as IntentionRow[],
      stoppedAt: (state.stopAt as RetrievalLayer | undefined) ?? 'item',
      degraded: state.degraded as string[],
    };
    state.context = result;
  },
};
