import type {
  CategoryRow,
  IntentionRow,
  ItemRow,
  PipelineRevisionRow,
  ResourceRow,
  RunLogRow,
  ScopeRange,
  SegmentRow,
  ServiceMetaRow,
} from '../engine-store-rows';
import type { LexicalPosting, LexicalPostings, LexicalPostingsRequest, LexicalSequence } from '../engine-store';
import { scopeInRange, scopeKey } from '../row-filters';
import { ScopeLexicalIndex } from './memory-lexical-index';
import { deepFreeze, frozenCopy, sharedStringCopy } from './memory-row-copy';

export { frozenCopy };

/** Undo steps of the running transaction; undefined outside one. */
export interface Journal {
  entries: Array<() => void> | undefined;
}

/**
 * A map whose writes inside a transaction record how to undo them, so a rollback costs the size
 * of the transaction, not of the store.
 */
export class JournaledMap<Key, Value> extends Map<Key, Value> {
  private journal: Journal | undefined;

  static over<Key, Value>(journal: Journal): JournaledMap<Key, Value> {
    const map = new JournaledMap<Key, Value>();
    map.journal = journal;
    return map;
  }

  override set(key: Key, value: Value): this {
    const entries = this.journal?.entries;
    if (entries !== undefined) {
      const had = super.has(key);
      const previous = super.get(key) as Value;
      entries.push(() => (had ? super.set(key, previous) : super.delete(key)));
    }
    return super.set(key, value);
  }

  override delete(key: Key): boolean {
    const entries = this.journal?.entries;
    if (entries !== undefined && super.has(key)) {
      const previous = super.get(key) as Value;
      entries.push(() => super.set(key, previous));
    }
    return super.delete(key);
  }
}

/** The items of one scope and their inverted index. */
export interface ScopeBucket {
  readonly scope: ItemRow['scope'];
  readonly items: JournaledMap<string, ItemRow>;
  /** Not journaled: a rollback rebuilds the index of every scope the transaction touched. */
  lexical: ScopeLexicalIndex;
}

/** Everything the in-memory store holds. Rows are frozen copies, replaced (never mutated) on update. */
export interface MemoryStoreState {
  readonly journal: Journal;
  resources: JournaledMap<string, ResourceRow>;
  segments: JournaledMap<string, SegmentRow[]>;
  items: JournaledMap<string, ItemRow>;
  /** Items by scope key, so reads of a range touch only its scopes. */
  itemsByScope: JournaledMap<string, ScopeBucket>;
  /** By scope key, then category key. */
  categories: JournaledMap<string, JournaledMap<string, CategoryRow>>;
  /** By scope key, versions in ascending order. */
  intentions: JournaledMap<string, IntentionRow[]>;
  revisions: PipelineRevisionRow[];
  runs: RunLogRow[];
  meta: ServiceMetaRow | undefined;
  /** Scope keys whose items the running transaction changed. */
  readonly touched: Set<string>;
}

export function emptyState(): MemoryStoreState {
  const journal: Journal = { entries: undefined };
  return {
    journal,
    resources: JournaledMap.over(journal),
    segments: JournaledMap.over(journal),
    items: JournaledMap.over(journal),
    itemsByScope: JournaledMap.over(journal),
    categories: JournaledMap.over(journal),
    intentions: JournaledMap.over(journal),
    revisions: [],
    runs: [],
    meta: undefined,
    touched: new Set(),
  };
}

/**
 * Stores (or replaces) a copy of an item in the id map, its scope bucket and the bucket's index.
 * The copy is deep and frozen; its tokens are the scope index's own strings, and an update that
 * leaves the tokens as they were keeps the previous row's token array.
 */
export function putItem(state: MemoryStoreState, item: ItemRow): ItemRow {
  const { lexicalTokens, ...rest } = item;
  const key = scopeKey(item.scope);
  let bucket = state.itemsByScope.get(key);
  if (bucket === undefined) {
    bucket = { scope: sharedStringCopy(item.scope), items: JournaledMap.over(state.journal), lexical: new ScopeLexicalIndex() };
    state.itemsByScope.set(key, bucket);
  }
  const index = bucket.lexical;
  const previous = state.items.get(item.id)?.lexicalTokens;
  const same = previous !== undefined && previous.length === lexicalTokens.length && previous.every((token, at) => token === lexicalTokens[at]);
  const tokens = same ? previous : Object.freeze(lexicalTokens.map((token) => index.canonical(token)));
  const stored = deepFreeze({ ...sharedStringCopy(rest), lexicalTokens: tokens }) as ItemRow;
  state.items.set(stored.id, stored);
  if (state.journal.entries !== undefined) state.touched.add(key);
  bucket.items.set(stored.id, stored);
  bucket.lexical.put(stored);
  return stored;
}

/** Removes an item from the id map, its scope bucket and the bucket's index. */
export function dropItem(state: MemoryStoreState, item: ItemRow): void {
  state.items.delete(item.id);
  const key = scopeKey(item.scope);
  if (state.journal.entries !== undefined) state.touched.add(key);
  const bucket = state.itemsByScope.get(key);
  bucket?.items.delete(item.id);
  bucket?.lexical.remove(item.id);
}

/** The sequences and postings of a range, from the index of each scope in it. */
export function readPostings(state: MemoryStoreState, request: LexicalPostingsRequest): LexicalPostings {
  const sequences: LexicalSequence[] = [];
  const postings = new Map<string, LexicalPosting[]>();
  let budget = request.maxItems ?? Number.MAX_SAFE_INTEGER;
  for (const bucket of state.itemsByScope.values()) {
    if (!scopeInRange(bucket.scope, request.range)) continue;
    const read = bucket.lexical.read(request.filter, request.terms, sequences.length, budget);
    if (read === undefined) return { complete: false, sequences: [], postings: new Map() };
    budget -= read.itemIds.length;
    if (read.itemIds.length === 0) continue;
    sequences.push({ scope: bucket.scope, itemIds: read.itemIds, lengths: read.lengths });
    for (const [term, found] of read.postings) {
      const all = postings.get(term);
      if (all === undefined) postings.set(term, found);
      else all.push(...found);
    }
  }
  return { complete: true, sequences, postings };
}

/** The items of the scopes in a range. */
export function* itemsInRange(state: MemoryStoreState, range: ScopeRange): Generator<ItemRow> {
  for (const bucket of state.itemsByScope.values()) {
    if (scopeInRange(bucket.scope, range)) yield* bucket.items.values();
  }
}

/** Runs `work` as a transaction: on error every write it made is undone, in reverse order. */
export async function journaled<T>(state: MemoryStoreState, work: () => Promise<T>): Promise<T> {
  const entries: Array<() => void> = [];
  const revisions = state.revisions.length;
  const runs = state.runs.length;
  state.journal.entries = entries;
  try {
    return await work();
  } catch (error) {
    state.journal.entries = undefined;
    for (const undo of entries.reverse()) undo();
    for (const key of state.touched) {
      const bucket = state.itemsByScope.get(key);
      if (bucket === undefined) continue;
      bucket.lexical = new ScopeLexicalIndex();
      for (const item of bucket.items.values()) bucket.lexical.put(item);
    }
    state.revisions.length = revisions;
    state.runs.length = runs;
    throw error;
  } finally {
    state.journal.entries = undefined;
    state.touched.clear();
  }
}
