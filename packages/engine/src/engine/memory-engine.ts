import type { EvolveDiff, EvolveOptions } from '../flows/evolve-steps';
import type { MemorizeInput } from '../flows/memorize-input';
import type { MemorizeResult } from '../flows/memorize-persist';
import type { RetrieveOptions, } from '../flows/retrieve-options';
import type { RetrieveResult } from '../flows/retrieve-recall';
import type { PipelineStep, StepConfig } from '../pipeline/pipeline-step';
import type { ScopeSelector } from '../scope/scope-selector';
import type { CategoryRow, EngineFlow, IntentionRow, ItemKind, ItemRow, PipelineRevisionRow, RunLogRow, ScopeValues, ServiceMetaRow } from '../store/engine-store-rows';
import type { JsonValue } from '@memplane/core';
import type { ItemFilter, ItemKeyset } from '../store/engine-store';
import type { EngineServices } from './engine-services';

/** Every flow result names its run, so the run log can be read back. */
export interface RunReference {
  readonly runId: string;
}

/** A curated item to write as given (no extraction). */
export interface ItemInput {
  readonly text: string;
  readonly summary?: string | undefined;
  /** Default `note`. */
  readonly kind?: ItemKind | undefined;
  /** Default 1: a curated item is as sure as its writer. */
  readonly confidence?: number | undefined;
  readonly metadata?: Readonly<Record<string, JsonValue>> | undefined;
  /** The caller's provenance reference, returned as given. */
  readonly origin?: JsonValue | undefined;
  readonly expiresAt?: string | undefined;
}

/** What a correction may change. The taxonomy is applied again to the result. */
export interface ItemCorrection {
  readonly text?: string | undefined;
  readonly summary?: string | undefined;
  readonly kind?: ItemKind | undefined;
  readonly confidence?: number | undefined;
  readonly metadata?: Readonly<Record<string, JsonValue>> | undefined;
}

/** Read options of categories (§6.2). */
export interface CategoryReadOptions {
  /** Include the summary. Default true. */
  readonly includeSummary?: boolean | undefined;
  /** Include up to this many approved items of the category. Default 0. */
  readonly includeItems?: number | undefined;
}

/** A category as read, optionally with its items. */
export interface CategoryView extends CategoryRow {
  readonly items?: readonly ItemRow[] | undefined;
}

/**
 * The memory engine (§6). Every call takes a scope: writes a full scope of the engine's scope
 * schema, `retrieve` a selector checked against the cross-scope policy before any query runs.
 */
export interface MemoryEngine {
  /** What the store records about this engine (scope schema hash, taxonomy version...). */
  readonly meta: ServiceMetaRow;
  /** Writes a resource or conversation and the items, categories and intention built from it. Idempotent on content + pipeline revision. */
  memorize(scope: ScopeValues, input: MemorizeInput, options?: { signal?: AbortSignal }): Promise<MemorizeResult & RunReference>;
  /** Hierarchical retrieval: intention, then categories, then items (lexical and vector recall fused). */
  retrieve(selector: ScopeSelector, query: string, options?: RetrieveOptions): Promise<RetrieveResult & RunReference>;
  /** Merges duplicates, re-routes categories, adjusts the intention; returns the diff. */
  evolve(scope: ScopeValues, options?: EvolveOptions): Promise<EvolveDiff & RunReference>;
  listCategories(scope: ScopeValues, options?: CategoryReadOptions): Promise<CategoryView[]>;
  getCategory(scope: ScopeValues, key: string, options?: CategoryReadOptions): Promise<CategoryView | undefined>;
  getLatestIntention(scope: ScopeValues): Promise<IntentionRow | undefined>;

  /**
   * Writes curated items as given, with the taxonomy applied. An item whose normalised text matches
   * a live item of the scope updates that item (summary, metadata, origin, kind) instead.
   */
  writeItems(scope: ScopeValues, items: readonly ItemInput[]): Promise<ItemRow[]>;
  getItems(scope: ScopeValues, itemIds: readonly string[]): Promise<Map<string, ItemRow>>;
  /** Items by id within a selector (checked against the cross-scope policy). */
  readItems(selector: ScopeSelector, itemIds: readonly string[]): Promise<Map<string, ItemRow>>;
  /** A keyset page of items within a selector, (createdAt, id) ascending; the page size is capped at 1000. */
  listItems(selector: ScopeSelector, filter: ItemFilter, page: { after?: ItemKeyset | undefined; limit: number }): Promise<ItemRow[]>;
  /** Corrects an item (version + 1), re-applying the taxonomy; undefined when it is not in the scope. */
  correct(scope: ScopeValues, itemId: string, correction: ItemCorrection): Promise<ItemRow | undefined>;
  /** A reviewer's decision on an item: `approved` (refused while it holds raw PII) or `rejected`. */
  review(scope: ScopeValues, itemId: string, decision: 'approved' | 'rejected'): Promise<ItemRow | undefined>;
  /** Deletes items, their vectors and the resources they were extracted from. Returns the ids deleted. */
  forget(scope: ScopeValues, itemIds: readonly string[]): Promise<string[]>;

  /** Overrides a step's config (§8.3); validated, then a new pipeline revision. */
  config(stepId: string, config: StepConfig): Promise<PipelineRevisionRow>;
  insertAfter(stepId: string, step: PipelineStep<EngineServices>): Promise<PipelineRevisionRow>;
  insertBefore(stepId: string, step: PipelineStep<EngineServices>): Promise<PipelineRevisionRow>;
  replace(stepId: string, step: PipelineStep<EngineServices>): Promise<PipelineRevisionRow>;
  remove(stepId: string): Promise<PipelineRevisionRow>;
  /** Makes an earlier revision current again, as a new revision. */
  rollback(revision: number): Promise<PipelineRevisionRow>;
  listPipelineRevisions(): Promise<PipelineRevisionRow[]>;
  /** The current revision number and each flow's step ids. */
  describePipelines(): { revision: number; flows: Record<EngineFlow, string[]> };
  listRuns(options?: { flow?: EngineFlow; limit?: number }): Promise<RunLogRow[]>;
  close(): Promise<void>;
}
