import { MemoryValidationError } from '@memplane/core';
import { cosineSimilarity } from '../support/cosine-similarity';
import type { ScopeValues } from './engine-store-rows';
import { sameScope, scopeInRange, scopeKey } from './row-filters';
import type { VectorEntry, VectorHit, VectorIndex, VectorSearchRequest } from './vector-index';

/**
 * A brute-force vector index in memory: every search compares the query with every vector of the
 * range. Exact, and fine for tests and small corpora; not performance-grade (§11.1). Vectors are
 * kept by scope, so a search reads the scopes of its range only.
 */
export function createBruteForceVectorIndex(): VectorIndex {
  const entries = new Map<string, VectorEntry>();
  const byScope = new Map<string, { scope: ScopeValues; entries: Map<string, VectorEntry> }>();
  const drop = (itemId: string) => {
    const entry = entries.get(itemId);
    if (entry === undefined) return;
    entries.delete(itemId);
    byScope.get(scopeKey(entry.scope))?.entries.delete(itemId);
  };
  return {
    name: 'bruteforce',
    async upsert(batch) {
      // Checked before any write, as the SQL indexes do: a NaN would poison every similarity it meets.
      batch.forEach((entry, index) => {
        if (entry.vector.length === 0 || !entry.vector.every(Number.isFinite)) {
          throw new MemoryValidationError({ target: 'vector index', issues: [{ path: `entries.${index}.vector`, message: 'must be finite numbers, at least one' }] });
        }
      });
      for (const entry of batch) {
        drop(entry.itemId);
        const stored = { ...entry, vector: Float32Array.from(entry.vector) };
        entries.set(entry.itemId, stored);
        const key = scopeKey(entry.scope);
        let bucket = byScope.get(key);
        if (bucket === undefined) {
          bucket = { scope: entry.scope, entries: new Map() };
          byScope.set(key, bucket);
        }
        bucket.entries.set(entry.itemId, stored);
      }
    },
    async remove(scope, itemIds) {
      for (const itemId of itemIds) {
        const entry = entries.get(itemId);
        if (entry !== undefined && sameScope(entry.scope, scope)) drop(itemId);
      }
    },
    async search(request: VectorSearchRequest): Promise<VectorHit[]> {
      const hits: VectorHit[] = [];
      for (const bucket of byScope.values()) {
        if (!scopeInRange(bucket.scope, request.range)) continue;
        for (const entry of bucket.entries.values()) {
          if (entry.model !== request.model) continue;
          const similarity = cosineSimilarity(entry.vector, request.vector);
          if (!Number.isNaN(similarity)) hits.push({ itemId: entry.itemId, scope: entry.scope, similarity });
        }
      }
      hits.sort((left, right) => right.similarity - left.similarity || (left.itemId < right.itemId ? -1 : 1));
      return hits.slice(0, request.limit);
    },
    async get(scope: ScopeValues, itemIds, model) {
      const found = new Map<string, Float32Array>();
      for (const itemId of itemIds) {
        const entry = entries.get(itemId);
        if (entry !== undefined && entry.model === model && sameScope(entry.scope, scope)) found.set(itemId, Float32Array.from(entry.vector));
      }
      return found;
    },
  };
}
