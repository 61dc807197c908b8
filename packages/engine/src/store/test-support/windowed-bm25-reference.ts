import { rankByBm25 } from '@memplane/rules';
import type { WindowShape } from '../lexical-ranking';
import type { ItemRow } from '../engine-store-rows';
import { compareByKeyset, scopeKey } from '../row-filters';

/**
 * The reference the indexed ranking must equal: the scan the engine ran before it had an index.
 * Every item of the range that passes the filter, in write order; its own BM25 (`rankByBm25`) plus
 * `weight` times the BM25 of the best window of neighbours holding it, the windows of every scope
 * forming a corpus of their own; best first, ties by id.
 */
export function referenceWindowedRanking(items: readonly ItemRow[], terms: readonly string[], shape: WindowShape, limit: number): Array<{ id: string; score: number }> {
  const ordered = [...items].sort(compareByKeyset);
  const byScope = new Map<string, ItemRow[]>();
  for (const item of ordered) {
    const list = byScope.get(scopeKey(item.scope)) ?? [];
    list.push(item);
    byScope.set(scopeKey(item.scope), list);
  }
  const own = new Map(rankByBm25(terms, ordered.map((item) => ({ payload: item.id, terms: item.lexicalTokens }))).map((match) => [match.payload, match.score]));
  const windows: Array<{ payload: readonly ItemRow[]; terms: string[] }> = [];
  if (shape.weight > 0) {
    for (const list of byScope.values()) {
      for (let start = 0; start < list.length; start += shape.stride) {
        const members = list.slice(start, start + shape.size);
        windows.push({ payload: members, terms: members.flatMap((member) => member.lexicalTokens) });
        if (start + shape.size >= list.length) break;
      }
    }
  }
  const best = new Map<string, number>();
  for (const match of rankByBm25(terms, windows)) {
    for (const member of match.payload) if ((best.get(member.id) ?? 0) < match.score) best.set(member.id, match.score);
  }
  return ordered
    .map((item) => ({ id: item.id, score: (own.get(item.id) ?? 0) + shape.weight * (best.get(item.id) ?? 0) }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score || (left.id < right.id ? -1 : 1))
    .slice(0, limit);
}
