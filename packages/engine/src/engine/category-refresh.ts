import type { EngineStoreSession } from '../store/engine-store';
import type { CategoryRow, ItemRow, ScopeValues } from '../store/engine-store-rows';
import type { EngineServices } from './engine-services';

/** Anchors kept per category: the most confident, most stable approved items. */
const anchorCount = 3;
/** Items read per category to pick anchors. */
const anchorScanLimit = 500;

function anchorScore(item: ItemRow): number {
  return item.confidence * item.stability;
}

/** The deterministic summary of a category: its anchors' texts, joined, at most 600 characters. */
export function anchorSummary(anchors: readonly Pick<ItemRow, 'text'>[]): string | undefined {
  return anchors.length === 0 ? undefined : anchors.map((item) => item.text).join(' · ').slice(0, 600);
}

function sameIds(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((id) => right.includes(id));
}

/**
 * Recomputes the rows of the given categories of a scope: approved item count, anchors and a
 * deterministic summary (the anchors' texts). Categories of the taxonomy that have no row yet get one.
 * A model summary (written by evolve's `summarize_categories`) is replaced too: the rows refreshed
 * here lost, changed or gained items, and a summary must never outlive the text it was made of.
 */
export async function refreshCategories(session: EngineStoreSession, services: EngineServices, scope: ScopeValues, keys: ReadonlySet<string>): Promise<CategoryRow[]> {
  const range = Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));
  const rows: CategoryRow[] = [];
  for (const category of services.categories) {
    if (!keys.has(category.key)) continue;
    const filter = { statuses: ['approved' as const], categoryKey: category.key };
    const itemCount = await session.countItems(range, filter);
    const items = await session.listItems(range, filter, { limit: anchorScanLimit });
    const anchors = [...items].sort((left, right) => anchorScore(right) - anchorScore(left) || (left.id < right.id ? -1 : 1)).slice(0, anchorCount);
    const summary = anchorSummary(anchors);
    rows.push({
      scope,
      key: category.key,
      name: category.name,
      description: category.description,
      summary,
      anchorItemIds: anchors.map((item) => item.id),
      itemCount,
      taxonomyVersion: services.taxonomyVersion,
      updatedAt: services.now(),
    });
  }
  await session.upsertCategories(rows);
  return rows;
}

/**
 * The category rows after items were added (memorize, curated writes): counts grow by the new
 * approved items and anchors are the best of the old anchors and the new items, so a write costs
 * the size of the batch, not of the category. When the anchors stay the same the summary stays too
 * (a model summary of those anchors survives); new anchors get the deterministic summary until the
 * next evolve. Removals and rewrites use {@link refreshCategories}.
 */
export async function addToCategories(session: EngineStoreSession, services: EngineServices, scope: ScopeValues, added: readonly ItemRow[]): Promise<CategoryRow[]> {
  const rows: CategoryRow[] = [];
  for (const category of services.categories) {
    const members = added.filter((item) => item.status === 'approved' && item.mergedInto === undefined && item.categoryKeys.includes(category.key));
    if (members.length === 0) continue;
    const current = await session.getCategory(scope, category.key);
    const previous = current === undefined ? [] : [...(await session.getItems(scope, current.anchorItemIds)).values()];
    const byId = new Map([...previous, ...members].map((item) => [item.id, item]));
    const anchors = [...byId.values()].sort((left, right) => anchorScore(right) - anchorScore(left) || (left.id < right.id ? -1 : 1)).slice(0, anchorCount);
    const anchorIds = anchors.map((item) => item.id);
    const kept = current !== undefined && current.summary !== undefined && sameIds(current.anchorItemIds, anchorIds);
    rows.push({
      scope,
      key: category.key,
      name: category.name,
      description: category.description,
      summary: kept ? current.summary : anchorSummary(anchors),
      anchorItemIds: anchorIds,
      itemCount: (current?.itemCount ?? 0) + members.filter((item) => !previous.some((anchor) => anchor.id === item.id)).length,
      taxonomyVersion: services.taxonomyVersion,
      updatedAt: services.now(),
    });
  }
  await session.upsertCategories(rows);
  return rows;
}
