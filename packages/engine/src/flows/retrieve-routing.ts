import { tokenize } from '@memplane/rules';
import { z } from 'zod';
import { categoryTerms } from '../engine/category-definitions';
import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep, StepContext } from '../pipeline/pipeline-step';
import { generateStructured } from '../profiles/model-calls';
import type { CategoryRow, IntentionRow, ScopeRange } from '../store/engine-store-rows';
import type { ResolvedRetrieveOptions } from './retrieve-options';

type Step = PipelineStep<EngineServices>;

/** The layer at which retrieval stopped. */
export type RetrievalLayer = 'intention' | 'category' | 'item';

/** Categories routed to per retrieve. */
const routedCategoryCount = 3;

const sufficiencySchema = z.object({ sufficient: z.boolean() });

/** Asks the step's model whether a context answers the query; without a model, the depth option decides. */
async function sufficient(context: StepContext<EngineServices>, layer: RetrievalLayer, layerText: string): Promise<boolean> {
  const options = context.state.options as ResolvedRetrieveOptions;
  if (options.depth === layer) return true;
  if (!options.sufficiencyChecks) return false;
  const profile = context.services.profiles.get(context.profileName);
  if (profile?.model === undefined || layerText.trim() === '') return false;
  const { value, usage } = await generateStructured(profile, {
    schema: sufficiencySchema,
    system: 'Decide whether the context is enough to answer the query without looking at more detailed memory. Answer {"sufficient": true|false}.',
    prompt: `Query: ${String(context.state.query)}\n\nContext:\n${layerText.slice(0, 8000)}`,
    signal: context.signal,
    operation: `${layer}_sufficiency`,
  });
  context.recordUsage(usage);
  return value.sufficient;
}

/** route_intention: the latest intention of every scope in the range (the top-level router, §2.4). */
export const routeIntentionStep: Step = {
  stepId: 'route_intention',
  role: 'route',
  requires: ['scopeRange'],
  produces: ['intentions'],
  capabilities: [],
  async run({ state, services }) {
    state.intentions = await services.store.listLatestIntentions(state.scopeRange as ScopeRange);
  },
};

/** intention_sufficiency: stops at the intention layer when it answers the query. */
export const intentionSufficiencyStep: Step = {
  stepId: 'intention_sufficiency',
  role: 'sufficiency',
  requires: ['query', 'intentions', 'options'],
  produces: ['stopAt'],
  capabilities: [],
  optionalCapabilities: ['llm'],
  async run(context) {
    const intentions = context.state.intentions as IntentionRow[];
    const text = intentions.map((intention) => [...intention.goals, ...intention.constraints, ...intention.progress].join('\n')).join('\n');
    if (await sufficient(context, 'intention', text)) context.state.stopAt = 'intention';
  },
};

/** route_category: the categories whose terms, summaries or intention links match the query. */
export const routeCategoryStep: Step = {
  stepId: 'route_category',
  role: 'route',
  requires: ['scopeRange', 'query', 'intentions'],
  produces: ['categories', 'routedCategoryKeys'],
  capabilities: [],
  async run({ state, services }) {
    if (state.stopAt !== undefined) {
      state.categories = [];
      state.routedCategoryKeys = [];
      return;
    }
    const rows = await services.store.listCategories(state.scopeRange as ScopeRange);
    const queryTerms = new Set(tokenize(String(state.query)));
    const linked = new Set((state.intentions as IntentionRow[]).flatMap((intention) => intention.categoryKeys));
    const scores = new Map<string, number>();
    for (const definition of services.categories) {
      const terms = categoryTerms(definition);
      for (const row of rows.filter((entry) => entry.key === definition.key)) for (const term of tokenize(row.summary ?? '')) terms.add(term);
      let score = [...queryTerms].filter((term) => terms.has(term)).length;
      if (linked.has(definition.key)) score += 0.5;
      if (score > 0) scores.set(definition.key, score);
    }
    const routed = [...scores].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1)).slice(0, routedCategoryCount).map(([key]) => key);
    state.routedCategoryKeys = routed;
    state.categories = rows.filter((row: CategoryRow) => routed.includes(row.key));
  },
};

/** category_sufficiency: stops at the category layer when the routed summaries answer the query. */
export const categorySufficiencyStep: Step = {
  stepId: 'category_sufficiency',
  role: 'sufficiency',
  requires: ['query', 'categories', 'options'],
  produces: ['stopAt'],
  capabilities: [],
  optionalCapabilities: ['llm'],
  async run(context) {
    if (context.state.stopAt !== undefined) return;
    const text = (context.state.categories as CategoryRow[]).map((row) => `${row.name}: ${row.summary ?? ''}`).join('\n');
    if (await sufficient(context, 'category', text)) context.state.stopAt = 'category';
  },
};
