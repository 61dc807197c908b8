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

/** The items of one scope. */
export interface ScopeBucket {
  readonly scope: ItemRow['scope'];
  readonly items: JournaledMap<string, ItemRow>;
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
  };
}

/** Stores (or replaces) an item in the id map and its scope bucket. */
export function putItem(state: MemoryStoreState, item: ItemRow): void {
  state.items.set(item.id, item);
  const key = scopeKey(item.scope);
  let bucket = state.itemsByScope.get(key);
  if (bucket === undefined) {
    bucket = { scope: item.scope, items: JournaledMap.over(state.journal) };
    state.itemsByScope.set(key, bucket);
  }
  bucket.items.set(item.id, item);
}

/** Removes an item from the id map and its scope bucket. */
export function dropItem(state: MemoryStoreState, item: ItemRow): void {
  state.items.delete(item.id);
  state.itemsByScope.get(scopeKey(item.scope))?.items.delete(item.id);
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
    state.revisions.length = revisions;
    state.runs.length = runs;
    throw error;
  } finally {
    state.journal.entries = undefined;
  }
}

/** A deep, frozen copy: nothing a caller does to what it passed or got reaches the store. */
export function frozenCopy<Row>(row: Row): Row {
  const copy = structuredClone(row);
  return deepFreeze(copy);
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
}
