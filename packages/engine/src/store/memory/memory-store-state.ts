import type {
  CategoryRow,
  IntentionRow,
  ItemRow,
  PipelineRevisionRow,
  ResourceRow,
  RunLogRow,
  SegmentRow,
  ServiceMetaRow,
} from '../engine-store-rows';

/** Everything the in-memory store holds. Rows are frozen copies, replaced (never mutated) on update. */
export interface MemoryStoreState {
  resources: Map<string, ResourceRow>;
  segments: Map<string, SegmentRow[]>;
  items: Map<string, ItemRow>;
  /** By scope key, then category key. */
  categories: Map<string, Map<string, CategoryRow>>;
  /** By scope key, versions in ascending order. */
  intentions: Map<string, IntentionRow[]>;
  revisions: PipelineRevisionRow[];
  runs: RunLogRow[];
  meta: ServiceMetaRow | undefined;
}

export function emptyState(): MemoryStoreState {
  return {
    resources: new Map(),
    segments: new Map(),
    items: new Map(),
    categories: new Map(),
    intentions: new Map(),
    revisions: [],
    runs: [],
    meta: undefined,
  };
}

/** A copy whose maps and arrays can change without touching the original (rows are shared: they are frozen). */
export function snapshotState(state: MemoryStoreState): MemoryStoreState {
  return {
    resources: new Map(state.resources),
    segments: new Map(state.segments),
    items: new Map(state.items),
    categories: new Map([...state.categories].map(([key, map]) => [key, new Map(map)])),
    intentions: new Map([...state.intentions].map(([key, list]) => [key, [...list]])),
    revisions: [...state.revisions],
    runs: [...state.runs],
    meta: state.meta,
  };
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
