import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep } from '../pipeline/pipeline-step';
import type { ItemEvidence, ItemRow, MediaSpan, ResourceRow, ScopeValues, SegmentRow } from '../store/engine-store-rows';
import { routeItemToCategories } from '../engine/category-definitions';
import { buildResource, type MemorizeInput } from './memorize-input';
import { extractByRules, extractWithModel, type ItemCandidate } from './extraction-candidates';
import { buildItem } from './item-builder';
import { categorizeWithModel } from './model-categorization';
import { preprocessStep } from './multimodal-preprocess';

type Step = PipelineStep<EngineServices>;

/** ingest_resource: builds the resource and its segments; finds an earlier memorize of the same content. */
export const ingestResourceStep: Step = {
  stepId: 'ingest_resource',
  role: 'ingest',
  requires: ['scope', 'input'],
  produces: ['resource', 'segments', 'duplicateOf'],
  capabilities: [],
  async run({ state, services }) {
    const scope = state.scope as ScopeValues;
    const built = buildResource(state.input as MemorizeInput, scope, services, services.now(), services.pipelineRevision);
    state.resource = built.resource;
    state.segments = built.segments;
    state.duplicateOf = await services.store.findResourceByHash(scope, built.resource.contentHash, services.pipelineRevision);
  },
};

/** Evidence from a segment derived from a media file names where in the file it lies. */
function withMediaSpans(candidates: ItemCandidate[], spans: Readonly<Record<string, MediaSpan>> | undefined): ItemCandidate[] {
  if (spans === undefined || Object.keys(spans).length === 0) return candidates;
  return candidates.map((candidate) => {
    const media = candidate.evidence.segmentId === undefined ? undefined : spans[candidate.evidence.segmentId];
    return media === undefined ? candidate : { ...candidate, evidence: { ...candidate.evidence, media } };
  });
}

/** extract_items: candidates from the profile's model, or from the rules when it has none. */
export const extractItemsStep: Step = {
  stepId: 'extract_items',
  role: 'extract',
  requires: ['resource', 'segments'],
  produces: ['candidates'],
  capabilities: [],
  optionalCapabilities: ['llm'],
  async run({ state, services, profileName, signal, recordUsage, note }) {
    const resource = state.resource as ResourceRow;
    const segments = state.segments as SegmentRow[];
    const spans = state.mediaSpans as Record<string, MediaSpan> | undefined;
    if (state.duplicateOf !== undefined || segments.length === 0) {
      state.candidates = [];
      return;
    }
    const profile = services.profiles.get(profileName);
    if (profile?.model === undefined) {
      note('no model: rule-based extraction');
      state.candidates = withMediaSpans(extractByRules(resource.id, segments, services.extraction), spans);
      return;
    }
    const { candidates, usage } = await extractWithModel(profile, resource.id, segments, signal);
    recordUsage(usage);
    state.candidates = withMediaSpans(candidates, spans);
  },
};

/** dedupe_merge: exact duplicates (same normalised text) in the batch or the scope reinforce the existing item. */
export const dedupeMergeStep: Step = {
  stepId: 'dedupe_merge',
  role: 'dedupe',
  requires: ['scope', 'candidates'],
  produces: ['newItems', 'reinforced'],
  capabilities: [],
  async run({ state, services }) {
    const scope = state.scope as ScopeValues;
    const { metadata, origin } = state.input as MemorizeInput;
    const now = services.now();
    const built = (state.candidates as ItemCandidate[]).map((candidate) =>
      buildItem(services, { scope, kind: candidate.kind, text: candidate.text, confidence: candidate.confidence, evidence: [candidate.evidence], expiresAt: candidate.expiresAt, metadata: metadata as ItemRow['metadata'] | undefined, origin: origin as ItemRow['origin'] }, now),
    );
    const existing = await services.store.findItemsByTextHash(scope, [...new Set(built.map((item) => item.textHash))]);
    const existingByHash = new Map(existing.filter((item) => item.mergedInto === undefined).map((item) => [item.textHash, item]));
    const fresh = new Map<string, ItemRow>();
    const reinforced = new Map<string, { item: ItemRow; evidence: ItemEvidence[] }>();
    for (const item of built) {
      const known = existingByHash.get(item.textHash);
      if (known !== undefined) {
        const entry = reinforced.get(known.id) ?? { item: known, evidence: [] };
        entry.evidence.push(...item.evidence);
        reinforced.set(known.id, entry);
        continue;
      }
      const earlier = fresh.get(item.textHash);
      if (earlier === undefined) fresh.set(item.textHash, item);
      else fresh.set(item.textHash, { ...earlier, confidence: Math.max(earlier.confidence, item.confidence), evidence: [...earlier.evidence, ...item.evidence] });
    }
    state.newItems = [...fresh.values()];
    state.reinforced = [...reinforced.values()];
  },
};

/** categorize_items: maps each new item onto the user's categories (kinds and keywords). */
export const categorizeItemsStep: Step = {
  stepId: 'categorize_items',
  role: 'categorize',
  requires: ['newItems'],
  produces: ['newItems'],
  capabilities: [],
  optionalCapabilities: ['llm'],
  async run({ state, services, profileName, signal, recordUsage }) {
    const items = state.newItems as ItemRow[];
    const byRules = (item: ItemRow) => routeItemToCategories(services.categories, item.kind, item.lexicalTokens);
    const profile = services.profiles.get(profileName);
    if (profile?.model === undefined || items.length === 0) {
      state.newItems = items.map((item) => ({ ...item, categoryKeys: byRules(item) }));
      return;
    }
    const categorized = await categorizeWithModel(profile, services.categories, items, byRules, signal);
    recordUsage(categorized.usage);
    state.newItems = categorized.items;
  },
};

export { preprocessStep };

export const memorizeExtractionSteps: readonly Step[] = [ingestResourceStep, preprocessStep, extractItemsStep, dedupeMergeStep, categorizeItemsStep];
