import { MemoryConflictError } from '@memplane/core';
import type { EngineStoreSession } from '../engine-store';
import type { CategoryRow, ItemRow, RunLogRow } from '../engine-store-rows';
import { compareByKeyset, itemPassesFilter, sameScope, scopeInRange, scopeKey } from '../row-filters';
import { searchLexicalIndex } from '../lexical/lexical-search';
import { JournaledMap } from './memory-journal';
import { dropItem, frozenCopy, itemsInRange, putItem, type MemoryStoreState } from './memory-store-state';

/** The ids in each run log array, so `appendRun` stays idempotent without scanning the log. */
const runIdsOf = new WeakMap<readonly RunLogRow[], Set<string>>();

/** The reads and writes of the in-memory store over one state object. */
export function createMemorySession(state: () => MemoryStoreState): EngineStoreSession {
  const ownItem = (scope: ItemRow['scope'], itemId: string): ItemRow | undefined => {
    const item = state().items.get(itemId);
    return item !== undefined && sameScope(item.scope, scope) ? item : undefined;
  };
  return {
    async findResourceByHash(scope, contentHash, pipelineRevision) {
      for (const resource of state().resources.values()) {
        if (resource.contentHash === contentHash && resource.pipelineRevision === pipelineRevision && sameScope(resource.scope, scope)) return resource;
      }
      return undefined;
    },
    async insertResource(resource, segments) {
      if (state().resources.has(resource.id)) throw new MemoryConflictError({ message: `Resource ${resource.id} already exists.` });
      for (const existing of state().resources.values()) {
        if (existing.contentHash === resource.contentHash && existing.pipelineRevision === resource.pipelineRevision && sameScope(existing.scope, resource.scope)) {
          throw new MemoryConflictError({ message: 'The scope already has this resource under this pipeline revision.' });
        }
      }
      state().resources.set(resource.id, frozenCopy(resource));
      state().segments.set(resource.id, segments.map((segment) => frozenCopy(segment)));
    },
    async getResource(scope, resourceId) {
      const resource = state().resources.get(resourceId);
      return resource !== undefined && sameScope(resource.scope, scope) ? resource : undefined;
    },
    async getSegments(scope, resourceId) {
      const resource = state().resources.get(resourceId);
      if (resource === undefined || !sameScope(resource.scope, scope)) return [];
      return [...(state().segments.get(resourceId) ?? [])];
    },
    async deleteResource(scope, resourceId) {
      const resource = state().resources.get(resourceId);
      if (resource === undefined || !sameScope(resource.scope, scope)) return false;
      state().resources.delete(resourceId);
      state().segments.delete(resourceId);
      return true;
    },
    async insertItems(items) {
      for (const item of items) if (state().items.has(item.id)) throw new MemoryConflictError({ message: `Item ${item.id} already exists.` });
      for (const item of items) putItem(state(), item);
    },
    async getItems(scope, itemIds) {
      const found = new Map<string, ItemRow>();
      for (const itemId of itemIds) {
        const item = ownItem(scope, itemId);
        if (item !== undefined) found.set(itemId, item);
      }
      return found;
    },
    async getItemsInRange(range, itemIds) {
      const found = new Map<string, ItemRow>();
      for (const itemId of itemIds) {
        const item = state().items.get(itemId);
        if (item !== undefined && scopeInRange(item.scope, range)) found.set(itemId, item);
      }
      return found;
    },
    async updateItem(scope, itemId, expectedVersion, patch) {
      const item = ownItem(scope, itemId);
      if (item === undefined) return undefined;
      if (item.version !== expectedVersion) {
        throw new MemoryConflictError({ message: `Item ${itemId} is at version ${item.version}, not ${expectedVersion}.` });
      }
      return putItem(state(), { ...item, ...patch, id: item.id, scope: item.scope, version: item.version + 1 });
    },
    async deleteItems(scope, itemIds) {
      const deleted: string[] = [];
      for (const itemId of itemIds) {
        const item = ownItem(scope, itemId);
        if (item !== undefined) {
          dropItem(state(), item);
          deleted.push(itemId);
        }
      }
      return deleted;
    },
    async listItems(range, filter, page) {
      // Each scope's index keeps write order: take the first page of each, then merge them.
      const pages: ItemRow[] = [];
      for (const bucket of state().itemsByScope.values()) {
        if (scopeInRange(bucket.scope, range)) pages.push(...bucket.order.listAfter(bucket.items, filter, page.after, page.limit));
      }
      return pages.sort(compareByKeyset).slice(0, page.limit);
    },
    async findItemsByTextHash(scope, textHashes) {
      const wanted = new Set(textHashes);
      return [...itemsInRange(state(), Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]])))].filter((item) => wanted.has(item.textHash));
    },
    async searchLexical(request) {
      return searchLexicalIndex(state().lexical, request);
    },
    async recordItemUse(scope, itemIds, at) {
      for (const itemId of itemIds) {
        const item = ownItem(scope, itemId);
        if (item !== undefined) putItem(state(), { ...item, useCount: item.useCount + 1, lastUsedAt: at });
      }
    },
    async countItems(range, filter) {
      let count = 0;
      for (const item of itemsInRange(state(), range)) if (itemPassesFilter(item, filter)) count += 1;
      return count;
    },
    async upsertCategories(categories) {
      for (const category of categories) {
        const key = scopeKey(category.scope);
        const byKey = state().categories.get(key) ?? JournaledMap.over<string, CategoryRow>(state().journal);
        byKey.set(category.key, frozenCopy(category));
        state().categories.set(key, byKey);
      }
    },
    async listCategories(range) {
      const found = [];
      for (const byKey of state().categories.values()) {
        for (const category of byKey.values()) if (scopeInRange(category.scope, range)) found.push(category);
      }
      return found.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
    },
    async getCategory(scope, key) {
      return state().categories.get(scopeKey(scope))?.get(key);
    },
    async insertIntention(intention) {
      const key = scopeKey(intention.scope);
      const versions = state().intentions.get(key) ?? [];
      if (versions.some((existing) => existing.version === intention.version)) {
        throw new MemoryConflictError({ message: `Intention version ${intention.version} already exists for the scope.` });
      }
      state().intentions.set(key, [...versions, frozenCopy(intention)].sort((left, right) => left.version - right.version));
    },
    async getLatestIntention(scope) {
      return state().intentions.get(scopeKey(scope))?.at(-1);
    },
    async listLatestIntentions(range) {
      const found = [];
      for (const versions of state().intentions.values()) {
        const latest = versions.at(-1);
        if (latest !== undefined && scopeInRange(latest.scope, range)) found.push(latest);
      }
      return found;
    },
    async deleteIntentionsCiting(scope, itemIds) {
      const key = scopeKey(scope);
      const versions = state().intentions.get(key) ?? [];
      const cited = new Set(itemIds);
      const kept = versions.filter((intention) => !intention.sourceItemIds.some((id) => cited.has(id)));
      state().intentions.set(key, kept);
      return versions.length - kept.length;
    },
    async appendPipelineRevision(revision) {
      const expected = (state().revisions.at(-1)?.revision ?? 0) + 1;
      if (revision.revision !== expected) {
        throw new MemoryConflictError({ message: `Pipeline revision ${revision.revision} is not the next one (${expected}).` });
      }
      state().revisions.push(frozenCopy(revision));
    },
    async listPipelineRevisions() {
      return [...state().revisions];
    },
    async appendRun(run) {
      const runs = state().runs;
      let ids = runIdsOf.get(runs);
      if (ids === undefined) {
        ids = new Set(runs.map((entry) => entry.id));
        runIdsOf.set(runs, ids);
      }
      // Idempotent on the run id. The set may keep the id of a row a rolled-back transaction
      // appended, so a hit is confirmed on the rows themselves.
      if (ids.has(run.id) && runs.some((entry) => entry.id === run.id)) return;
      ids.add(run.id);
      runs.push(frozenCopy(run));
    },
    async listRuns(options) {
      const runs = state().runs.filter((run) => options.flow === undefined || run.flow === options.flow);
      return runs.slice(-options.limit).reverse();
    },
    async getServiceMeta() {
      return state().meta;
    },
  };
}
