import { rankCandidatesAsync, type WindowedScores, type WindowMembers } from '@memplane/rules';
import type { LexicalHit, LexicalSearchRequest } from '../engine-store';
import type { ItemRow, ScopeRange } from '../engine-store-rows';
import { itemPassesFilter, scopeInRange } from '../row-filters';

/** The neighbour windows of every engine store: 4 items every 2, as markdown's (tuned on the LoCoMo dev half). */
export const engineWindowShape = { field: 'body', size: 4, stride: 2 } as const;

/** What a store's lexical index answers, for {@link searchLexicalIndex}. */
export interface EngineLexicalSource {
  /**
   * The scores of the range's indexed items holding a query term (the corpus: the range's blocks),
   * with neighbour windows when `windows` is true. Items outside the range's narrower scope fields
   * are not returned, but count in the statistics and in their windows.
   */
  score(range: ScopeRange, terms: readonly string[], windows: boolean): Promise<WindowedScores>;
  /** The members of these windows, as [window key, rowid] pairs. */
  windowMembers(keys: readonly number[]): Promise<WindowMembers>;
  /** The rows of these rowids (the search checks each against its range and filter). */
  itemsOf(rowids: readonly number[]): Promise<Map<number, ItemRow>>;
}

/** The first rows read per search; each later read takes twice as many. */
const firstRead = 32;

/**
 * The lexical search of every engine store: BM25 with neighbour windows from the store's index
 * (`scoreWithWindows` and `rankCandidates` of `@memplane/rules`), then the rows of the best
 * candidates, read in growing batches, kept when they pass the filter (status, kind, expiry,
 * metadata: what an index does not hold), until `limit` pass. Each item scores its own BM25 plus
 * `windowWeight ×` its best window's; ties go to the earlier write.
 */
export async function searchLexicalIndex(source: EngineLexicalSource, request: LexicalSearchRequest): Promise<LexicalHit[]> {
  const terms = [...new Set(request.terms)];
  const weight = request.windowWeight ?? 0;
  // A field with no allowed value matches nothing (as `scopeRange` makes it in SQL).
  if (terms.length === 0 || request.limit <= 0 || Object.values(request.range).some((values) => values !== undefined && values.length === 0)) return [];
  const found = await source.score(request.range, terms, weight > 0);
  const ranked = rankCandidatesAsync({ own: found.documents, bestWindow: found.bestWindow, windows: found.windows, context: weight }, (keys) => source.windowMembers(keys));
  const hits: LexicalHit[] = [];
  let batch: Array<{ rowid: number; score: number }> = [];
  let size = Math.max(firstRead, request.limit);
  const keepPassing = async () => {
    const rows = await source.itemsOf(batch.map((candidate) => candidate.rowid));
    for (const { rowid, score } of batch) {
      const item = rows.get(rowid);
      // The row decides, never the index: a stale or colliding index entry is dropped here.
      if (item === undefined || !scopeInRange(item.scope, request.range) || !itemPassesFilter(item, request.filter)) continue;
      hits.push({ item, score });
      if (hits.length === request.limit) break;
    }
    batch = [];
    size *= 2;
  };
  for await (const candidate of ranked) {
    batch.push(candidate);
    if (batch.length < size) continue;
    await keepPassing();
    if (hits.length === request.limit) return hits;
  }
  if (batch.length > 0) await keepPassing();
  return hits;
}
