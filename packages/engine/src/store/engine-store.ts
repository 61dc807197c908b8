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
  /** Analysed query terms (`tokenize` of `@memplane/rules`), distinct. Matched against `lexicalTokens`. */
  readonly terms: readonly string[];
  readonly filter: ItemFilter;
  /** Already capped by the engine's candidate policy. */
  readonly limit: number;
}

/** One lexical candidate with the backend's relevance score (higher is better). */
export interface LexicalHit {
  readonly item: ItemRow;
  /**
   * BM25 of the query terms over `lexicalTokens` (`rankByBm25` of `@memplane/rules` gives the
   * reference). The engine fuses by rank, so only the order matters across backends.
   */
  readonly score: number;
}

/** What {@link EngineStoreSession.lexicalPostings} reads: the query terms over the items of a range that pass a filter. */
export interface LexicalPostingsRequest {
  readonly range: ScopeRange;
  /** Analysed query terms (`tokenize` of `@memplane/rules`), distinct. */
  readonly terms: readonly string[];
  readonly filter: ItemFilter;
  /**
   * Most items the read may cover (the policy's `maxContextScan`). When more pass the filter, the
   * store stops reading and answers `complete: false`, with partial sequences nobody should rank.
   */
  readonly maxItems?: number | undefined;
}

/** The items of one scope that pass the filter, in write order ((createdAt, id) ascending). */
export interface LexicalSequence {
  readonly scope: ScopeValues;
  readonly itemIds: readonly string[];
  /** The token count (`lexicalTokens.length`) of each item, by position. */
  readonly lengths: ArrayLike<number>;
}

/** One item holding a query term: where it sits in the sequences and how often it holds the term. */
export interface LexicalPosting {
  /** Index into {@link LexicalPostings.sequences}. */
  readonly sequence: number;
  /** Position in that sequence. */
  readonly position: number;
  /** Term frequency in the item's tokens, at least 1. */
  readonly tf: number;
}

/**
 * The index data lexical ranking needs, without the rows: per scope, the sequence of items that
 * pass the filter (ids and lengths, the corpus statistics and neighbour windows come from it), and
 * per query term the items holding it. Each item appears at most once per term.
 */
export interface LexicalPostings {
  /** False when the range holds more than `maxItems` items passing the filter. */
  readonly complete: boolean;
  readonly sequences: readonly LexicalSequence[];
  /** By query term; a term no item holds is absent or has no postings. */
  readonly postings: ReadonlyMap<string, readonly LexicalPosting[]>;
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
   * Items of the range passing the filter that hold at least one term, best first, at most
   * `limit`. When more match than `limit`, the best-scoring ones must be kept.
   */
  searchLexical(request: LexicalSearchRequest): Promise<LexicalHit[]>;
  /**
   * The sequences and postings of the query terms over the range (items passing the filter), read
   * from the store's lexical index: the engine ranks by BM25 with neighbour windows over them
   * (`rankWithWindows`), then reads only the rows it keeps with `getItemsInRange`.
   */
  lexicalPostings(request: LexicalPostingsRequest): Promise<LexicalPostings>;
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
