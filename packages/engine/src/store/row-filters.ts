import type { JsonValue } from '@memplane/core';
import type { ItemRow, ScopeRange, ScopeValues } from './engine-store-rows';
import type { ItemFilter } from './engine-store';
import { stableStringify } from '@memplane/core';

/** Whether a full scope lies in a range: every pinned field holds one of its values. */
export function scopeInRange(scope: ScopeValues, range: ScopeRange): boolean {
  for (const [field, values] of Object.entries(range)) {
    if (values === undefined) continue;
    const value = scope[field];
    if (value === undefined || !values.includes(value)) return false;
  }
  return true;
}

/** Whether two full scopes are the same scope (every field equal). */
export function sameScope(left: ScopeValues, right: ScopeValues): boolean {
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every((key) => left[key] === right[key]);
}

/** A stable key of a full scope, for maps keyed by scope. */
export function scopeKey(scope: ScopeValues): string {
  return stableStringify(scope);
}

function jsonEqual(left: JsonValue | undefined, right: JsonValue): boolean {
  return left !== undefined && stableStringify(left) === stableStringify(right);
}

/** Whether an item passes an item filter (the reference semantics every backend follows). */
export function itemPassesFilter(item: ItemRow, filter: ItemFilter): boolean {
  if (filter.statuses !== undefined && !filter.statuses.includes(item.status)) return false;
  if (filter.kinds !== undefined && !filter.kinds.includes(item.kind)) return false;
  if (filter.categoryKey !== undefined && !item.categoryKeys.includes(filter.categoryKey)) return false;
  if ((filter.excludeMerged ?? true) && item.mergedInto !== undefined) return false;
  if (filter.notExpiredAt !== undefined && item.expiresAt !== undefined && item.expiresAt <= filter.notExpiredAt) return false;
  if (filter.metadataEquals !== undefined) {
    for (const [key, value] of Object.entries(filter.metadataEquals)) {
      if (!Object.hasOwn(item.metadata, key) || !jsonEqual(item.metadata[key], value)) return false;
    }
  }
  return true;
}

/** Orders items by (createdAt, id) ascending: the keyset order of listings. */
export function compareByKeyset(left: { createdAt: string; id: string }, right: { createdAt: string; id: string }): number {
  if (left.createdAt !== right.createdAt) return left.createdAt < right.createdAt ? -1 : 1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}
