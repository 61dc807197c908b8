import { isWellFormedText, MemoryError } from '@memplane/core';
import { piiRiskOf } from '@memplane/rules';
import { z } from 'zod';
import { anchorSummary } from '../engine/category-refresh';
import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep } from '../pipeline/pipeline-step';
import type { ResolvedLlmProfile } from '../profiles/llm-profiles';
import { generateStructured, type CallUsage } from '../profiles/model-calls';
import type { CategoryRow, ItemRow, ScopeValues } from '../store/engine-store-rows';

type Step = PipelineStep<EngineServices>;

/** What `summarize_categories` did, in the evolve diff. */
export interface CategorySummaryDiff {
  /** Categories whose summary the model wrote in this run. */
  readonly summarized: readonly string[];
  /** Categories whose model call failed or answered unusably: they keep the anchors' texts. */
  readonly degraded: readonly string[];
}

const summarySchema = z.object({ summary: z.string().min(1).max(600) });
const summarySystem = [
  'You summarise one category of a memory store for an AI assistant, from its representative items.',
  'Write one or two sentences, at most 600 characters, that say what the items hold. Use only what the items say; invent nothing; no personal data.',
  'Answer JSON: {"summary": "..."}.',
].join(' ');

/** Anchors as the model sees them: each bounded, all together within `maxInputChars`. */
function summaryPrompt(category: CategoryRow, anchors: readonly ItemRow[], maxInputChars: number): string {
  const each = Math.max(50, Math.floor(maxInputChars / Math.max(1, anchors.length)));
  const lines = anchors.map((item, index) => `[${index}] (${item.kind}) ${item.text.slice(0, each)}`);
  return `Category: ${category.name}: ${category.description.slice(0, 300)}\nItems:\n${lines.join('\n')}`.slice(0, maxInputChars + 400);
}

async function summarizeOne(profile: ResolvedLlmProfile, prompt: string, signal: AbortSignal): Promise<{ summary: string; usage: CallUsage }> {
  const { value, usage } = await generateStructured(profile, { schema: summarySchema, system: summarySystem, prompt, signal, operation: 'summarize_categories' });
  return { summary: value.summary.trim(), usage };
}

/** A whole-number config value within bounds, or its default when it is not a number. */
function bounded(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : fallback;
}

/** Why a model summary is not written, or undefined when it may be. */
function unusable(summary: string): string | undefined {
  if (summary === '' || !isWellFormedText(summary) || summary.includes('\u0000')) return 'not well-formed text';
  if (piiRiskOf({ text: summary }) >= 2) return 'it holds raw PII';
  return undefined;
}

/**
 * summarize_categories (evolve): with a model on its profile (role `cluster`, §4.2 precedence),
 * summarises each category's anchors (at most `maxCategories` per run, 0 to 1000; input bounded by
 * `maxInputChars`; token budget, timeout and retries from the profile). A category whose summary
 * is already the model's for the same anchors is not asked again. A failing or unusable answer
 * leaves the deterministic summary and a note: it never fails evolve. The write re-reads the row in
 * a transaction and only lands when the anchors are still the ones summarised. Without a model, or
 * in a dry run, nothing changes.
 */
export const summarizeCategoriesStep: Step = {
  stepId: 'summarize_categories',
  role: 'cluster',
  requires: ['scope', 'options', 'intentionVersions'],
  produces: ['categorySummaries'],
  capabilities: [],
  optionalCapabilities: ['llm'],
  defaultConfig: { maxCategories: 50, maxInputChars: 4000 },
  async run({ state, services, profileName, config, signal, recordUsage, note }) {
    const summarized: string[] = [];
    const degraded: string[] = [];
    state.categorySummaries = { summarized, degraded } satisfies CategorySummaryDiff;
    const profile = services.profiles.get(profileName);
    if ((state.options as { dryRun?: boolean }).dryRun === true) return;
    if (profile?.model === undefined) {
      note('no model: category summaries are the anchors\' texts');
      return;
    }
    const scope = state.scope as ScopeValues;
    const maxCategories = bounded(config.maxCategories, 50, 0, 1000);
    const maxInputChars = bounded(config.maxInputChars, 4000, 200, 100_000);
    const range = Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));
    const categories = (await services.store.listCategories(range)).filter((category) => category.anchorItemIds.length > 0);
    for (const category of categories.slice(0, maxCategories)) {
      const anchors = [...(await services.store.getItems(scope, category.anchorItemIds)).values()];
      const deterministic = anchorSummary(category.anchorItemIds.flatMap((id) => anchors.filter((item) => item.id === id)));
      // A summary that is not the anchors' texts was written by the model for these very anchors.
      if (category.summary !== undefined && category.summary !== deterministic) continue;
      let summary: string;
      try {
        const answer = await summarizeOne(profile, summaryPrompt(category, anchors, maxInputChars), signal);
        recordUsage(answer.usage);
        summary = answer.summary;
      } catch (error) {
        // The caller gave up (not the model's own timeout): stop like any step would.
        if (signal.aborted) throw error;
        degraded.push(category.key);
        note(`${category.key}: ${MemoryError.isInstance(error) ? error.code : 'model error'}; kept the anchors' texts`);
        continue;
      }
      const refused = unusable(summary);
      if (refused !== undefined) {
        degraded.push(category.key);
        note(`${category.key}: model summary refused (${refused}); kept the anchors' texts`);
        continue;
      }
      const written = await services.store.transaction(async (tx) => {
        const current = await tx.getCategory(scope, category.key);
        if (current === undefined || current.anchorItemIds.join('\u0000') !== category.anchorItemIds.join('\u0000')) return false;
        await tx.upsertCategories([{ ...current, summary, updatedAt: services.now() }]);
        return true;
      });
      if (written) summarized.push(category.key);
      else note(`${category.key}: anchors changed meanwhile; summary not written`);
    }
  },
};
