import type { JsonValue } from '@memplane/core';
import type {
  CategoryRow,
  EngineFlow,
  IntentionRow,
  ItemKind,
  ItemPatch,
  ItemRow,
  ItemStatus,
  PipelineRevisionRow,
  ResourceRow,
  RunLogRow,
  ScopeRange,
  ScopeValues,
  SegmentRow,
  ServiceMetaRow,
} from './engine-store-rows';
import type { VectorIndex } from './vector-index';

/**
 * The backend contract of `@memplane/engine` (§3 Backend Layer, metadata store).
 *
 * Every method that reads or writes scoped rows takes a full scope (`ScopeValues`) for writes and
 * single-scope reads, or a checked `ScopeRange` for cross-scope reads. Stores keep scope fields as
 * real columns (dynamic DDL, §5.2) with composite indexes that start with the scope columns in
 * schema order. A row is never returned for a scope other than the one asked for: a store must
 * compare every scope column, never an id alone.
 *
 * Every session method is also callable on the store itself, outside a transaction (each call
 * then stands alone).
 *
 * Stores throw only `MemoryError` subclasses from `@memplane/core`: `MemoryConfigurationError`
 * for a schema mismatch on `open`, `MemoryConflictError` for a lost optimistic update,
 * `MemoryApiCallError`-style retryable errors for a dropped connection.
 */
export interface EngineStore extends EngineStoreSession {
  /** A short name for service meta and the run log, such as `memory`, `sqlite` or `postgres`. */
  readonly name: string;
  /**
   * Provisions or validates the schema and returns the recorded service meta. With `create`,
   * missing tables, scope columns and indexes are created and `service_meta` is written when
   * absent; with `validate` nothing is created. In both modes a stored `scopeSchemaHash` (or scope
   * field list) different from `spec.meta`'s is refused with `MemoryConfigurationError`: the
   * engine never migrates a scope schema itself. Idempotent.
   */
  open(spec: EngineStoreOpenSpec): Promise<ServiceMetaRow>;
  /** Runs `work` in one transaction: all its writes land, or none do. Nested calls join the outer one. */
  transaction<T>(work: (tx: EngineStoreSession) => Promise<T>): Promise<T>;
  /** The vector index that lives with this store (brute force, pgvector), if it has one. */
  readonly vectorIndex?: VectorIndex | undefined;
  /** Releases connections. Further calls fail. */
  close(): Promise<void>;
}

/** What `open` provisions. */
export interface EngineStoreOpenSpec {
  readonly ddlMode: 'create' | 'validate';
  /** The service meta to record on first open; later opens compare the scope schema hash to it. */
  readonly meta: ServiceMetaRow;
}

/** Filters of an item listing or lexical search. */
export interface ItemFilter {
  /** Only these statuses; default every status. */
  readonly statuses?: readonly ItemStatus[] | undefined;
  readonly kinds?: readonly ItemKind[] | undefined;
  /** Only items in this category. */
  readonly categoryKey?: string | undefined;
  /** Keep items merged into another out (default true). */
  readonly excludeMerged?: boolean | undefined;
  /** Keep items whose `expiresAt` is at or before this instant out, when given. */
  readonly notExpiredAt?: string | undefined;
  /**
   * Top-level metadata equality: an item matches when, for every key, its metadata value is
   * JSON-equal to the given one (`metadata @> filter` in Postgres for scalars).
   */
  readonly metadataEquals?: Readonly<Record<string, JsonValue>> | undefined;
}

/** The keyset position of a listing: items strictly after (createdAt, id) in ascending order. */
export interface ItemKeyset {
  readonly createdAt: string;
  readonly id: string;
}

/** A lexical candidate search (§6.1, fused with vector search by the engine). */
export interface LexicalSearchRequest {
  readonly range: ScopeRange;
  /** Analysed query terms (`queryTerms` of `@memplane/rules`), distinct. Matched against `lexicalTokens`. */
  readonly terms: readonly string[];
  readonly filter: ItemFilter;
  /**
   * How much the best neighbour window adds to an item's own BM25 (windows of 4 items every 2 in
   * each scope's write order). 0, the default, ranks by the item's own BM25 alone.
   */
  readonly windowWeight?: number | undefined;
  /** Already capped by the engine's candidate policy. */
  readonly limit: number;
}

/** One lexical candidate with the backend's relevance score (higher is better). */
export interface LexicalHit {
  readonly item: ItemRow;
  /**
   * BM25 of the query terms over `lexicalTokens` (plus the weighted window score), with the range's
   * blocks as the corpus: the same number on every store for the same writes.
   */
  readonly score: number;
}

/** The reads and writes of the store, inside or outside a transaction. */
export interface EngineStoreSession {
  // Resources and segments
  /** The resource of the scope with this content hash written under this pipeline revision. */
  findResourceByHash(scope: ScopeValues, contentHash: string, pipelineRevision: number): Promise<ResourceRow | undefined>;
  /**
   * Inserts a resource and its segments. Throws `MemoryConflictError` when the scope already has a
   * resource with the same `contentHash` and `pipelineRevision` (a unique index in SQL stores), so
   * two concurrent memorize calls of the same content write it once.
   */
  insertResource(resource: ResourceRow, segments: readonly SegmentRow[]): Promise<void>;
  getResource(scope: ScopeValues, resourceId: string): Promise<ResourceRow | undefined>;
  getSegments(scope: ScopeValues, resourceId: string): Promise<SegmentRow[]>;
  /** Deletes a resource and its segments (forget: the bytes are gone). Returns whether it existed. */
  deleteResource(scope: ScopeValues, resourceId: string): Promise<boolean>;

  // Items
  insertItems(items: readonly ItemRow[]): Promise<void>;
  /** Items of one scope by id; missing ids (and ids of other scopes) are absent from the map. */
  getItems(scope: ScopeValues, itemIds: readonly string[]): Promise<Map<string, ItemRow>>;
  /** Items by id that lie in the range (for reads with a partial scope and for vector hits). */
  getItemsInRange(range: ScopeRange, itemIds: readonly string[]): Promise<Map<string, ItemRow>>;
  /**
   * Applies `patch` when the stored version equals `expectedVersion`, bumping the version by 1.
   * Returns the new row; throws `MemoryConflictError` on a version mismatch and returns `undefined`
   * when the item does not exist in the scope.
   */
  updateItem(scope: ScopeValues, itemId: string, expectedVersion: number, patch: ItemPatch): Promise<ItemRow | undefined>;
  /** Deletes items of one scope for good (vectors are removed by the engine). Returns the ids deleted. */
  deleteItems(scope: ScopeValues, itemIds: readonly string[]): Promise<string[]>;
  /** Items of the range in (createdAt, id) ascending order after `after`, at most `limit`. */
  listItems(range: ScopeRange, filter: ItemFilter, page: { after?: ItemKeyset | undefined; limit: number }): Promise<ItemRow[]>;
  /** Items of one scope whose `textHash` is one of the given hashes (exact-duplicate check). */
  findItemsByTextHash(scope: ScopeValues, textHashes: readonly string[]): Promise<ItemRow[]>;
  /**
   * Items of the range passing the filter, best first, at most `limit`: BM25 with neighbour
   * windows over the store's lexical index (`searchLexicalIndex`). The statistics are kept on
   * write, so a search reads the postings of its terms and the rows it returns, never the rest of
   * the range.
   */
  searchLexical(request: LexicalSearchRequest): Promise<LexicalHit[]>;
  /** Adds 1 to `useCount` and sets `lastUsedAt` (no version bump: usage is not an edit). */
  recordItemUse(scope: ScopeValues, itemIds: readonly string[], at: string): Promise<void>;
  /** The number of items in the range that pass the filter. */
  countItems(range: ScopeRange, filter: ItemFilter): Promise<number>;

  // Categories
  /** Inserts or replaces categories by (scope, key). */
  upsertCategories(categories: readonly CategoryRow[]): Promise<void>;
  listCategories(range: ScopeRange): Promise<CategoryRow[]>;
  getCategory(scope: ScopeValues, key: string): Promise<CategoryRow | undefined>;

  // Intentions
  /** Appends an intention version; throws `MemoryConflictError` when that version exists for the scope. */
  insertIntention(intention: IntentionRow): Promise<void>;
  getLatestIntention(scope: ScopeValues): Promise<IntentionRow | undefined>;
  /** The latest intention of each scope in the range. */
  listLatestIntentions(range: ScopeRange): Promise<IntentionRow[]>;
  /**
   * Deletes every intention version of the scope whose `sourceItemIds` name one of the items (forget:
   * intentions hold copies of item text). Returns how many versions were deleted.
   */
  deleteIntentionsCiting(scope: ScopeValues, itemIds: readonly string[]): Promise<number>;

  // Pipeline revisions (service-wide)
  /** Appends a revision; throws `MemoryConflictError` unless it is exactly latest + 1 (or 1 on an empty log). */
  appendPipelineRevision(revision: PipelineRevisionRow): Promise<void>;
  listPipelineRevisions(): Promise<PipelineRevisionRow[]>;

  // Run log (service-wide, each row names its scope range)
  /** Appends a run's log row; idempotent on the run id (a second row with the same id is ignored). */
  appendRun(run: RunLogRow): Promise<void>;
  /** The most recent runs first. */
  listRuns(options: { flow?: EngineFlow | undefined; limit: number }): Promise<RunLogRow[]>;

  // Service meta
  getServiceMeta(): Promise<ServiceMetaRow | undefined>;
}
