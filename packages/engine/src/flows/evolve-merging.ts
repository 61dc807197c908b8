import type { ItemRow } from '../store/engine-store-rows';
import { cosineSimilarity } from '../support/cosine-similarity';

/** One merge: the surviving item and the items folded into it. */
export interface MergeGroup {
  readonly survivor: ItemRow;
  readonly merged: readonly ItemRow[];
}

/** Tokens shared by more items than this are too common to propose a pair. */
const commonTokenLimit = 64;

function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const token of left) if (right.has(token)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** The better of two duplicates survives: higher confidence, then the older, then the smaller id. */
function better(left: ItemRow, right: ItemRow): ItemRow {
  if (left.confidence !== right.confidence) return left.confidence > right.confidence ? left : right;
  if (left.createdAt !== right.createdAt) return left.createdAt < right.createdAt ? left : right;
  return left.id < right.id ? left : right;
}

/**
 * Groups duplicate items of one scope: the same normalised text, or the same kind with token sets
 * at least `similarity` alike (Jaccard), or vectors at least `vectorSimilarity` alike when given.
 * Rejected items are never merged. Candidate pairs come from shared uncommon tokens, so the work
 * grows with the corpus, not with its square.
 */
export function findMergeGroups(
  items: readonly ItemRow[],
  options: { similarity: number; vectorSimilarity?: number | undefined; vectors?: ReadonlyMap<string, Float32Array> | undefined },
): MergeGroup[] {
  const live = items.filter((item) => item.mergedInto === undefined && item.status !== 'rejected');
  const parent = new Map(live.map((item) => [item.id, item.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(id, root);
    return root;
  };
  const union = (left: string, right: string) => {
    const a = find(left);
    const b = find(right);
    if (a !== b) parent.set(a < b ? b : a, a < b ? a : b);
  };
  const byHash = new Map<string, string>();
  for (const item of live) {
    const earlier = byHash.get(item.textHash);
    if (earlier === undefined) byHash.set(item.textHash, item.id);
    else union(earlier, item.id);
  }
  const tokens = new Map(live.map((item) => [item.id, new Set(item.lexicalTokens)]));
  const postings = new Map<string, ItemRow[]>();
  for (const item of live) for (const token of tokens.get(item.id) ?? []) postings.set(token, [...(postings.get(token) ?? []), item]);
  for (const item of live) {
    const checked = new Set<string>();
    for (const token of tokens.get(item.id) ?? []) {
      const sharing = postings.get(token) ?? [];
      if (sharing.length > commonTokenLimit) continue;
      for (const other of sharing) {
        if (other.id <= item.id || checked.has(other.id) || other.kind !== item.kind) continue;
        checked.add(other.id);
        const lexicalMatch = jaccard(tokens.get(item.id) as Set<string>, tokens.get(other.id) as Set<string>) >= options.similarity;
        if (lexicalMatch) union(item.id, other.id);
      }
    }
  }
  if (options.vectors !== undefined && options.vectorSimilarity !== undefined) {
    const withVectors = live.filter((item) => options.vectors?.has(item.id));
    for (let i = 0; i < withVectors.length; i += 1) {
      for (let j = i + 1; j < withVectors.length; j += 1) {
        const left = withVectors[i] as ItemRow;
        const right = withVectors[j] as ItemRow;
        if (left.kind !== right.kind) continue;
        if (cosineSimilarity(options.vectors.get(left.id) as Float32Array, options.vectors.get(right.id) as Float32Array) >= options.vectorSimilarity) union(left.id, right.id);
      }
    }
  }
  const groups = new Map<string, ItemRow[]>();
  for (const item of live) groups.set(find(item.id), [...(groups.get(find(item.id)) ?? []), item]);
  const result: MergeGroup[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const survivor = members.reduce(better);
    result.push({ survivor, merged: members.filter((member) => member !== survivor) });
  }
  return result.sort((left, right) => (left.survivor.id < right.survivor.id ? -1 : 1));
}
