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
import { scopeInRange, scopeKey } from '../row-filters';
import { JournaledMap, type Journal } from './memory-journal';
import { ScopeItemOrder } from './memory-item-order';
import { MemoryLexicalState } from './memory-lexical-state';
import { deepFreeze, frozenCopy, sharedStringCopy } from './memory-row-copy';

export { frozenCopy };

/** The items of one scope and their write order. */
export interface ScopeBucket {
  readonly scope: ItemRow['scope'];
  readonly items: JournaledMap<string, ItemRow>;
  /** Not journaled: a rollback drops the order of every scope the transaction touched. */
  readonly order: ScopeItemOrder;
}

/** Everything the in-memory store holds. Rows are frozen copies, replaced (never mutated) on update. */
export interface MemoryStoreState {
  readonly journal: Journal;
  resources: JournaledMap<string, ResourceRow>;
  segments: JournaledMap<string, SegmentRow[]>;
  items: JournaledMap<string, ItemRow>;
  /** Items by scope key, so reads of a range touch only its scopes. */
  itemsByScope: JournaledMap<string, ScopeBucket>;
  /** The lexical index of every item; its changes are journaled. */
  readonly lexical: MemoryLexicalState;
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
  const items = JournaledMap.over<string, ItemRow>(journal);
  const state: MemoryStoreState = {
    journal,
    resources: JournaledMap.over(journal),
    segments: JournaledMap.over(journal),
    items,
    itemsByScope: JournaledMap.over(journal),
    lexical: new MemoryLexicalState(journal, () => state.meta, (itemId) => items.get(itemId)),
    categories: JournaledMap.over(journal),
    intentions: JournaledMap.over(journal),
    revisions: [],
    runs: [],
    meta: undefined,
    touched: new Set(),
  };
  return state;
}

/**
 * Stores (or replaces) a copy of an item in the id map, its scope bucket and the lexical index.
 * The copy is deep and frozen; its tokens are the lexical index's own strings, and an update that
 * leaves the tokens as they were keeps the previous row's token array (and the index its postings).
 */
export function putItem(state: MemoryStoreState, item: ItemRow): ItemRow {
  const { lexicalTokens, ...rest } = item;
  const key = scopeKey(item.scope);
  let bucket = state.itemsByScope.get(key);
  if (bucket === undefined) {
    bucket = { scope: sharedStringCopy(item.scope), items: JournaledMap.over(state.journal), order: new ScopeItemOrder() };
    state.itemsByScope.set(key, bucket);
  }
  const previous = state.items.get(item.id);
  const previousTokens = previous?.lexicalTokens;
  const same = previousTokens !== undefined && previousTokens.length === lexicalTokens.length && previousTokens.every((token, at) => token === lexicalTokens[at]);
  const tokens = same ? previousTokens : Object.freeze(lexicalTokens.map((token) => state.lexical.canonical(token)));
  const stored = deepFreeze({ ...sharedStringCopy(rest), lexicalTokens: tokens }) as ItemRow;
  state.items.set(stored.id, stored);
  if (state.journal.entries !== undefined) state.touched.add(key);
  bucket.items.set(stored.id, stored);
  if (previous === undefined || previous.createdAt !== stored.createdAt) bucket.order.invalidate();
  state.lexical.put(stored, previous);
  return stored;
}

/** Removes an item from the id map, its scope bucket and the lexical index. */
export function dropItem(state: MemoryStoreState, item: ItemRow): void {
  state.lexical.remove(item);
  state.items.delete(item.id);
  const key = scopeKey(item.scope);
  if (state.journal.entries !== undefined) state.touched.add(key);
  const bucket = state.itemsByScope.get(key);
  bucket?.items.delete(item.id);
  bucket?.order.invalidate();
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
    for (const key of state.touched) state.itemsByScope.get(key)?.order.invalidate();
    state.revisions.length = revisions;
    state.runs.length = runs;
    throw error;
  } finally {
    state.journal.entries = undefined;
    state.touched.clear();
  }
}
