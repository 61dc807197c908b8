import { MemoryValidationError } from '@memplane/core';
import { z } from 'zod';
import { routeItemToCategories } from '../engine/category-definitions';
import { refreshCategories } from '../engine/category-refresh';
import type { EngineServices } from '../engine/engine-services';
import { intentionChanged, intentionFromItems, nextIntentionRow, type IntentionContent } from '../engine/intention-builder';
import type { PipelineStep } from '../pipeline/pipeline-step';
import { describeModel } from '../profiles/llm-profiles';
import type { ItemRow, ScopeValues } from '../store/engine-store-rows';
import { effectiveStability, governItem } from '../taxonomy/item-governance';
import type { CategorySummaryDiff } from './category-summaries';
import { findMergeGroups, type MergeGroup } from './evolve-merging';

type Step = PipelineStep<EngineServices>;

/** Options of `evolve`. */
export interface EvolveOptions {
  /** Most items considered. Default 5000. */
  readonly maxItems?: number | undefined;
  /** Jaccard similarity of token sets at which two items of one kind are duplicates. Default 0.85. */
  readonly similarity?: number | undefined;
  /** Cosine similarity at which two embedded items of one kind are duplicates. Default 0.95. */
  readonly vectorSimilarity?: number | undefined;
  /** Compute the diff without writing. Default false. */
  readonly dryRun?: boolean | undefined;
}

const optionsSchema = z.strictObject({
  maxItems: z.number().int().min(1).max(100_000).optional(),
  similarity: z.number().gt(0).max(1).optional(),
  vectorSimilarity: z.number().gt(0).max(1).optional(),
  dryRun: z.boolean().optional(),
});

/** Checks evolve options. */
export function resolveEvolveOptions(options: unknown): Required<{ [Key in keyof EvolveOptions]: NonNullable<EvolveOptions[Key]> }> {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw new MemoryValidationError({ target: 'evolve options', issues: parsed.error.issues.map((issue) => ({ path: ['options', ...issue.path].join('.'), message: issue.message })) });
  return { maxItems: parsed.data.maxItems ?? 5000, similarity: parsed.data.similarity ?? 0.85, vectorSimilarity: parsed.data.vectorSimilarity ?? 0.95, dryRun: parsed.data.dryRun ?? false };
}

/** What evolve changed (or would change, in a dry run). */
export interface EvolveDiff {
  readonly merged: ReadonlyArray<{ readonly survivorId: string; readonly mergedIds: readonly string[] }>;
  readonly recategorized: ReadonlyArray<{ readonly itemId: string; readonly before: readonly string[]; readonly after: readonly string[] }>;
  readonly intention: { readonly beforeVersion: number | undefined; readonly afterVersion: number | undefined };
  /** Todos past their `expiresAt` (kept out of retrieval). */
  readonly expired: readonly string[];
  /** Facts whose stability decayed below 0.2 through disuse. */
  readonly fading: readonly string[];
  /** Category summaries the model wrote, or failed to (`summarize_categories`; empty without a model). */
  readonly categorySummaries: CategorySummaryDiff;
  readonly dryRun: boolean;
}

type Options = ReturnType<typeof resolveEvolveOptions>;

/** select_targets: the scope's live items (approved and pending, not merged). */
export const selectTargetsStep: Step = {
  stepId: 'select_targets',
  role: 'select',
  requires: ['scope', 'options'],
  produces: ['targets'],
  capabilities: [],
  async run({ state, services }) {
    const scope = state.scope as ScopeValues;
    const range = Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));
    state.targets = await services.store.listItems(range, { statuses: ['approved', 'pending'], excludeMerged: true }, { limit: (state.options as Options).maxItems });
  },
};

/** refresh_items: finds duplicates to merge; lists expired todos and fading facts. */
export const refreshItemsStep: Step = {
  stepId: 'refresh_items',
  role: 'refresh',
  requires: ['scope', 'targets', 'options'],
  produces: ['merges', 'expired', 'fading'],
  capabilities: [],
  optionalCapabilities: ['embedding'],
  async run({ state, services }) {
    const targets = state.targets as ItemRow[];
    const options = state.options as Options;
    let vectors: Map<string, Float32Array> | undefined;
    const profile = services.embeddingProfile;
    if (profile !== undefined && services.vectorIndex !== undefined) {
      vectors = await services.vectorIndex.get(state.scope as ScopeValues, targets.map((item) => item.id), describeModel(profile.embeddingModel));
    }
    state.merges = findMergeGroups(targets, { similarity: options.similarity, vectorSimilarity: options.vectorSimilarity, vectors });
    const now = services.now();
    state.expired = targets.filter((item) => item.kind === 'todo' && item.expiresAt !== undefined && item.expiresAt <= now).map((item) => item.id);
    state.fading = targets.filter((item) => item.kind === 'fact' && effectiveStability(item, now) < 0.2).map((item) => item.id);
  },
};

/** recluster_categories: routes every surviving item again; lists the ones whose categories change. */
export const reclusterCategoriesStep: Step = {
  stepId: 'recluster_categories',
  role: 'cluster',
  requires: ['targets', 'merges'],
  produces: ['recategorized'],
  capabilities: [],
  async run({ state, services }) {
    const mergedAway = new Set((state.merges as MergeGroup[]).flatMap((group) => group.merged.map((item) => item.id)));
    const changes = [];
    for (const item of state.targets as ItemRow[]) {
      if (mergedAway.has(item.id)) continue;
      const after = routeItemToCategories(services.categories, item.kind, item.lexicalTokens);
      const same = after.length === item.categoryKeys.length && after.every((key) => item.categoryKeys.includes(key));
      if (!same) changes.push({ itemId: item.id, before: [...item.categoryKeys], after });
    }
    state.recategorized = changes;
  },
};

/** adjust_intention: the intention the items will give once merges and re-categorisations land. */
export const adjustIntentionStep: Step = {
  stepId: 'adjust_intention',
  role: 'intention',
  requires: ['targets', 'merges', 'recategorized'],
  produces: ['intention'],
  capabilities: [],
  async run({ state, services }) {
    const mergedAway = new Set((state.merges as MergeGroup[]).flatMap((group) => group.merged.map((item) => item.id)));
    const categories = new Map((state.recategorized as Array<{ itemId: string; after: string[] }>).map((change) => [change.itemId, change.after]));
    const items = (state.targets as ItemRow[]).filter((item) => !mergedAway.has(item.id)).map((item) => ({ ...item, categoryKeys: categories.get(item.id) ?? item.categoryKeys }));
    state.intention = intentionFromItems(items, services.now());
  },
};

/** The survivor of a merge: evidence, confidence and categories combined, the taxonomy applied again. */
function mergedSurvivor(group: MergeGroup, now: string): Partial<ItemRow> {
  const all = [group.survivor, ...group.merged];
  const confidence = Math.max(...all.map((item) => item.confidence));
  const governed = governItem({ ...group.survivor, confidence, reviewedStatus: group.survivor.status === 'pending' ? undefined : group.survivor.status }, now);
  return {
    confidence,
    status: governed.status,
    piiRisk: governed.piiRisk,
    evidence: all.flatMap((item) => item.evidence).slice(-50),
    categoryKeys: [...new Set(all.flatMap((item) => item.categoryKeys))],
    updatedAt: now,
  };
}

/** evolve_persist: merges, re-categorisations, category rows and the new intention, in one transaction. */
export const evolvePersistStep: Step = {
  stepId: 'evolve_persist',
  role: 'persist',
  requires: ['scope', 'merges', 'recategorized', 'intention', 'options'],
  produces: ['intentionVersions'],
  capabilities: ['db_write'],
  async run({ state, services }) {
    const scope = state.scope as ScopeValues;
    const options = state.options as Options;
    const latest = await services.store.getLatestIntention(scope);
    const content = state.intention as IntentionContent;
    const changed = intentionChanged(latest, content);
    if (options.dryRun) {
      state.intentionVersions = { beforeVersion: latest?.version, afterVersion: changed ? (latest?.version ?? 0) + 1 : latest?.version };
      return;
    }
    state.intentionVersions = await services.store.transaction(async (tx) => {
      const now = services.now();
      const touched = new Set<string>();
      const recategorized = new Map((state.recategorized as Array<{ itemId: string; after: string[] }>).map((change) => [change.itemId, change.after]));
      for (const group of state.merges as MergeGroup[]) {
        const survivorPatch = mergedSurvivor(group, now);
        const current = (await tx.getItems(scope, [group.survivor.id])).get(group.survivor.id);
        if (current === undefined) continue;
        await tx.updateItem(scope, current.id, current.version, survivorPatch);
        for (const key of survivorPatch.categoryKeys ?? []) touched.add(key);
        for (const merged of group.merged) {
          const row = (await tx.getItems(scope, [merged.id])).get(merged.id);
          if (row === undefined) continue;
          await tx.updateItem(scope, row.id, row.version, { mergedInto: current.id, updatedAt: now });
          for (const key of row.categoryKeys) touched.add(key);
        }
      }
      for (const [itemId, after] of recategorized) {
        const row = (await tx.getItems(scope, [itemId])).get(itemId);
        if (row === undefined || row.mergedInto !== undefined) continue;
        for (const key of [...row.categoryKeys, ...after]) touched.add(key);
        await tx.updateItem(scope, itemId, row.version, { categoryKeys: after, taxonomyVersion: services.taxonomyVersion, updatedAt: now });
      }
      await refreshCategories(tx, services, scope, touched);
      const current = await tx.getLatestIntention(scope);
      if (!intentionChanged(current, content)) return { beforeVersion: current?.version, afterVersion: current?.version };
      const row = nextIntentionRow(services, scope, current, content);
      await tx.insertIntention(row);
      return { beforeVersion: current?.version, afterVersion: row.version };
    });
  },
};

/** emit_diff: what evolve changed. */
export const emitDiffStep: Step = {
  stepId: 'emit_diff',
  role: 'diff',
  requires: ['merges', 'recategorized', 'intentionVersions', 'expired', 'fading', 'options'],
  produces: ['diff'],
  capabilities: [],
  async run({ state }) {
    const diff: EvolveDiff = {
      merged: (state.merges as MergeGroup[]).map((group) => ({ survivorId: group.survivor.id, mergedIds: group.merged.map((item) => item.id) })),
      recategorized: state.recategorized as EvolveDiff['recategorized'],
      intention: state.intentionVersions as EvolveDiff['intention'],
      expired: state.expired as string[],
      fading: state.fading as string[],
      categorySummaries: (state.categorySummaries as CategorySummaryDiff | undefined) ?? { summarized: [], degraded: [] },
      dryRun: (state.options as Options).dryRun,
    };
    state.diff = diff;
  },
};

export const defaultEvolveSteps: readonly Step[] = [selectTargetsStep, refreshItemsStep, reclusterCategoriesStep, adjustIntentionStep, evolvePersistStep, emitDiffStep];
