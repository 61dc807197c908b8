import type { ItemFilter, ItemKeyset } from '../engine-store';
import type { ItemRow } from '../engine-store-rows';
import { compareByKeyset, itemPassesFilter } from '../row-filters';

/**
 * The write order ((createdAt, id) ascending) of one scope's items, for listings: the ids sorted
 * once and kept until an item joins, leaves or changes its `createdAt`. Rows are read from the
 * scope's map, so an update that only replaces a row keeps the order.
 */
export class ScopeItemOrder {
  private ids: string[] | undefined;

  /** Drops the sorted order; the next listing sorts again. */
  invalidate(): void {
    this.ids = undefined;
  }

  /** At most `limit` items passing the filter after `after`, in write order (a binary search, then a walk). */
  listAfter(items: ReadonlyMap<string, ItemRow>, filter: ItemFilter, after: ItemKeyset | undefined, limit: number): ItemRow[] {
    this.ids ??= [...items.values()].sort(compareByKeyset).map((item) => item.id);
    const order = this.ids;
    const rowAt = (index: number) => items.get(order[index] as string) as ItemRow;
    let low = 0;
    if (after !== undefined) {
      let high = order.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareByKeyset(rowAt(middle), after) <= 0) low = middle + 1;
        else high = middle;
      }
    }
    const found: ItemRow[] = [];
    for (let index = low; index < order.length && found.length < limit; index += 1) {
      const row = rowAt(index);
      if (itemPassesFilter(row, filter)) found.push(row);
    }
    return found;
  }
}
