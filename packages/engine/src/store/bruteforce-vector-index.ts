import { cosineSimilarity } from '../support/cosine-similarity';
import type { ScopeValues } from './engine-store-rows';
import { sameScope, scopeInRange } from './row-filters';
import type { VectorEntry, VectorHit, VectorIndex, VectorSearchRequest } from './vector-index';

/**
 * A brute-force vector index in memory: every search compares the query with every vector of the
 * range. Exact, and fine for tests and small corpora; not performance-grade (§11.1).
 */
export function createBruteForceVectorIndex(): VectorIndex {
  const entries = new Map<string, VectorEntry>();
  return {
    name: 'bruteforce',
    async upsert(batch) {
      for (const entry of batch) entries.set(entry.itemId, { ...entry, vector: Float32Array.from(entry.vector) });
    },
    async remove(scope, itemIds) {
      for (const itemId of itemIds) {
        const entry = entries.get(itemId);
        if (entry !== undefined && sameScope(entry.scope, scope)) entries.delete(itemId);
      }
    },
    async search(request: VectorSearchRequest): Promise<VectorHit[]> {
      const hits: VectorHit[] = [];
      for (const entry of entries.values()) {
        if (entry.model !== request.model || !scopeInRange(entry.scope, request.range)) continue;
        const similarity = cosineSimilarity(entry.vector, request.vector);
        if (!Number.isNaN(similarity)) hits.push({ itemId: entry.itemId, scope: entry.scope, similarity });
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
