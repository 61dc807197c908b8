import type { ItemFilter, ItemKeyset, LexicalPosting } from '../engine-store';
import type { ItemRow } from '../engine-store-rows';
import { stableStringify } from '@memplane/core';
import { compareByKeyset, itemPassesFilter } from '../row-filters';

/**
 * A growable posting list, (slot, term frequency) pairs interleaved. Most terms are rare, and a
 * typed array costs about 200 bytes of its own, so a list starts as a small array of integers and
 * moves to an Int32Array once it holds {@link typedFrom} postings.
 */
interface PostingList {
  /** The term itself: the one string of it every item of the scope shares. */
  readonly term: string;
  data: number[] | Int32Array;
  size: number;
}

/** Removes a slot's entry from a list, keeping the others in order. */
function withoutSlot(list: PostingList, slot: number): void {
  let kept = 0;
  for (let index = 0; index < list.size; index += 1) {
    const at = index * 2;
    if (list.data[at] === slot) continue;
    list.data[kept * 2] = list.data[at] as number;
    list.data[kept * 2 + 1] = list.data[at + 1] as number;
    kept += 1;
  }
  if (Array.isArray(list.data)) list.data.length = kept * 2;
  list.size = kept;
}

const typedFrom = 32;

function append(list: PostingList, slot: number, frequency: number): void {
  const at = list.size * 2;
  if (Array.isArray(list.data)) {
    if (list.size < typedFrom) {
      // A fresh array of the exact length: push would leave room for 16 more on every short list.
      list.data = [...list.data, slot, frequency];
      list.size += 1;
      return;
    }
    const typed = new Int32Array(typedFrom * 4);
    typed.set(list.data);
    list.data = typed;
  } else if (at + 2 > list.data.length) {
    const typed = new Int32Array(list.data.length * 2);
    typed.set(list.data);
    list.data = typed;
  }
  list.data[at] = slot;
  list.data[at + 1] = frequency;
  list.size += 1;
}

const sameTokens = (left: readonly string[], right: readonly string[]) => left === right || (left.length === right.length && left.every((token, index) => token === right[index]));

/** Whether two rows of one item pass exactly the same filters. */
const sameFiltering = (left: ItemRow, right: ItemRow) =>
  left.status === right.status && left.kind === right.kind && left.mergedInto === right.mergedInto && left.expiresAt === right.expiresAt &&
  stableStringify(left.categoryKeys) === stableStringify(right.categoryKeys) && stableStringify(left.metadata) === stableStringify(right.metadata);

/** The items of a scope passing one filter, in write order, with each slot's position among them (-1 when out). */
interface FilteredSequence {
  readonly key: string;
  readonly now: string | undefined;
  /** The earliest expiry among the items in; from that instant the sequence is stale. */
  readonly nextExpiry: string | undefined;
  readonly positions: Int32Array;
  readonly itemIds: string[];
  readonly lengths: Int32Array;
}

const grown = (array: Int32Array, size: number): Int32Array => {
  if (size < array.length) return array;
  const next = new Int32Array(Math.max(8, array.length * 2));
  next.set(array);
  return next;
};

/**
 * The inverted index of one scope of the in-memory store: each item gets a slot (its row and token
 * count), each term a posting list of (slot, term frequency). Removal takes the item out of its
 * terms' lists and leaves a hole in the slots; the index compacts itself when holes outnumber live
 * items. The write
 * order of the slots ((createdAt, id), what neighbour windows follow) is kept sorted lazily.
 */
export class ScopeLexicalIndex {
  private rows: Array<ItemRow | undefined> = [];
  private lengths: Int32Array = new Int32Array(64);
  private postings = new Map<string, PostingList>();
  private slotOf = new Map<string, number>();
  /** Live slots in write order when `sorted`. */
  private order: number[] = [];
  private sorted = true;
  private holes = 0;
  /** Removed slots still listed in `order`. */
  private orderHoles = 0;
  /** The last filtered sequence read, dropped by any change of what passes a filter or of the order. */
  private filtered: FilteredSequence | undefined;

  /** Adds an item, or replaces the row of one already indexed (re-indexing its tokens when they changed). */
  put(item: ItemRow): void {
    const slot = this.slotOf.get(item.id);
    if (slot !== undefined) {
      const previous = this.rows[slot] as ItemRow;
      if (previous.createdAt === item.createdAt && sameTokens(previous.lexicalTokens, item.lexicalTokens)) {
        this.rows[slot] = item;
        if (!sameFiltering(previous, item)) this.filtered = undefined;
        return;
      }
      this.remove(item.id);
    }
    this.add(item);
  }

  /**
   * The scope's own string for a token, when an item of the scope holds it: stored rows use it, so
   * a term is kept once per scope. Once the last item holding a term is removed, its list and its
   * string go too (forget leaves no token of a deleted item in the index).
   */
  canonical(token: string): string {
    return this.postings.get(token)?.term ?? token;
  }

  /** How many distinct terms the index holds (forget drops the terms only deleted items had). */
  get termCount(): number {
    return this.postings.size;
  }

  remove(itemId: string): void {
    const slot = this.slotOf.get(itemId);
    if (slot === undefined) return;
    for (const term of new Set((this.rows[slot] as ItemRow).lexicalTokens)) {
      const list = this.postings.get(term);
      if (list === undefined) continue;
      withoutSlot(list, slot);
      if (list.size === 0) this.postings.delete(term);
    }
    this.slotOf.delete(itemId);
    this.rows[slot] = undefined;
    this.filtered = undefined;
    this.holes += 1;
    this.orderHoles += 1;
    if (this.holes > 64 && this.holes > this.slotOf.size) this.rebuild();
  }

  /**
   * The items passing the filter in write order, and the postings of `terms` over them, tagged
   * with `sequence` (the caller's index of this scope); undefined as soon as more than `maxItems` pass.
   */
  read(filter: ItemFilter, terms: readonly string[], sequence: number, maxItems: number): { itemIds: string[]; lengths: Int32Array; postings: Map<string, LexicalPosting[]> } | undefined {
    const { positions, itemIds, lengths } = this.filteredBy(filter);
    if (itemIds.length > maxItems) return undefined;
    const postings = new Map<string, LexicalPosting[]>();
    for (const term of terms) {
      const list = this.postings.get(term);
      if (list === undefined) continue;
      const found: LexicalPosting[] = [];
      const { data } = list;
      for (let index = 0; index < list.size * 2; index += 2) {
        const position = positions[data[index] as number] as number;
        if (position >= 0) found.push({ sequence, position, tf: data[index + 1] as number });
      }
      if (found.length > 0) postings.set(term, found);
    }
    return { itemIds, lengths, postings };
  }

  /** At most `limit` items passing the filter after `after`, in write order (a binary search, then a walk). */
  listAfter(filter: ItemFilter, after: ItemKeyset | undefined, limit: number): ItemRow[] {
    const order = this.inOrder();
    let low = 0;
    if (after !== undefined) {
      let high = order.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareByKeyset(this.rows[order[middle] as number] as ItemRow, after) <= 0) low = middle + 1;
        else high = middle;
      }
    }
    const found: ItemRow[] = [];
    for (let index = low; index < order.length && found.length < limit; index += 1) {
      const row = this.rows[order[index] as number] as ItemRow;
      if (itemPassesFilter(row, filter)) found.push(row);
    }
    return found;
  }

  /**
   * The filtered sequence, from the cache when the index has not changed, the filter is the same
   * and no item has expired since (retrieve asks with one filter at a moving `now`).
   */
  private filteredBy(filter: ItemFilter): FilteredSequence {
    const key = JSON.stringify([filter.statuses, filter.kinds, filter.categoryKey, filter.excludeMerged, filter.metadataEquals === undefined ? undefined : stableStringify(filter.metadataEquals)]);
    const now = filter.notExpiredAt;
    const cached = this.filtered;
    if (cached !== undefined && cached.key === key && (now === undefined ? cached.now === undefined : cached.now !== undefined && cached.now <= now && (cached.nextExpiry === undefined || now < cached.nextExpiry))) {
      return cached;
    }
    const order = this.inOrder();
    const positions = new Int32Array(this.rows.length).fill(-1);
    const itemIds: string[] = [];
    const lengths = new Int32Array(order.length);
    let nextExpiry: string | undefined;
    for (const slot of order) {
      const row = this.rows[slot];
      if (row === undefined || !itemPassesFilter(row, filter)) continue;
      if (now !== undefined && row.expiresAt !== undefined && (nextExpiry === undefined || row.expiresAt < nextExpiry)) nextExpiry = row.expiresAt;
      lengths[itemIds.length] = this.lengths[slot] as number;
      positions[slot] = itemIds.length;
      itemIds.push(row.id);
    }
    this.filtered = { key, now, nextExpiry, positions, itemIds, lengths: lengths.subarray(0, itemIds.length) };
    return this.filtered;
  }

  private add(item: ItemRow): void {
    this.filtered = undefined;
    const slot = this.rows.length;
    this.rows.push(item);
    this.slotOf.set(item.id, slot);
    this.lengths = grown(this.lengths, slot);
    this.lengths[slot] = item.lexicalTokens.length;
    const counts = new Map<string, number>();
    for (const token of item.lexicalTokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, frequency] of counts) {
      let list = this.postings.get(term);
      if (list === undefined) {
        list = { term, data: [], size: 0 };
        this.postings.set(term, list);
      }
      append(list, slot, frequency);
    }
    const last = this.order.at(-1);
    const lastRow = last === undefined ? undefined : this.rows[last];
    // A hole at the end hides the order of what came before: sort again on the next read.
    if (this.sorted && last !== undefined && (lastRow === undefined || compareByKeyset(lastRow, item) > 0)) this.sorted = false;
    this.order.push(slot);
  }

  /** Live slots in write order: removed ones are filtered out here, once, before the next read. */
  private inOrder(): number[] {
    if (this.orderHoles > 0) {
      this.order = this.order.filter((slot) => this.rows[slot] !== undefined);
      this.orderHoles = 0;
    }
    if (!this.sorted) {
      this.order.sort((left, right) => compareByKeyset(this.rows[left] as ItemRow, this.rows[right] as ItemRow));
      this.sorted = true;
    }
    return this.order;
  }

  /** Re-indexes the live items into fresh slots, dropping the holes. */
  private rebuild(): void {
    const live = this.inOrder().flatMap((slot) => this.rows[slot] ?? []);
    this.rows = [];
    this.lengths = new Int32Array(Math.max(64, live.length));
    this.postings = new Map();
    this.slotOf = new Map();
    this.order = [];
    this.sorted = true;
    this.holes = 0;
    this.orderHoles = 0;
    for (const item of live) this.add(item);
  }
}
