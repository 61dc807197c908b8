import type { ScopeRange, ScopeValues } from './engine-store-rows';

/** One vector to index for an item. */
export interface VectorEntry {
  readonly itemId: string;
  readonly scope: ScopeValues;
  /** The model that produced the vector; searches only compare vectors of the same model. */
  readonly model: string;
  readonly vector: Float32Array;
}

/** One nearest neighbour: the item, its scope and its cosine similarity in [-1, 1]. */
export interface VectorHit {
  readonly itemId: string;
  /** The item's full scope, so the engine reads the row back with a scope-checked lookup. */
  readonly scope: ScopeValues;
  readonly similarity: number;
}

/**
 * The vector index (§3, §11.4): embedding writes and top-k similarity search, scope-filtered.
 * Swappable without touching pipelines: brute force in memory or SQLite, pgvector HNSW in Postgres,
 * or an external store. An index never decides status or scope policy; the engine passes a range it
 * has already checked and re-checks every hit against the metadata store.
 */
export interface VectorIndex {
  /** A short name for the run log and service meta, such as `bruteforce` or `pgvector-hnsw`. */
  readonly name: string;
  /** Inserts or replaces the vectors of the given items. */
  upsert(entries: readonly VectorEntry[]): Promise<void>;
  /** Removes the vectors of the given items of one scope; missing ids are ignored. */
  remove(scope: ScopeValues, itemIds: readonly string[]): Promise<void>;
  /** The `limit` nearest items within the range for the model, best first. */
  search(request: VectorSearchRequest): Promise<VectorHit[]>;
  /** The stored vectors of the given items of one scope (for dedupe and clustering), by item id. */
  get(scope: ScopeValues, itemIds: readonly string[], model: string): Promise<Map<string, Float32Array>>;
}

/** A similarity search. */
export interface VectorSearchRequest {
  readonly range: ScopeRange;
  readonly model: string;
  readonly vector: Float32Array;
  /** Already capped by the engine's candidate policy. */
  readonly limit: number;
}
