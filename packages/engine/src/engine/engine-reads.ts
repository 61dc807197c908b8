import type { ScopeValues } from '../store/engine-store-rows';
import type { EngineServices } from './engine-services';
import type { CategoryReadOptions, CategoryView } from './memory-engine';

/** The categories of a scope (or one of them), in taxonomy order, with summaries and items as asked (§6.2). */
export async function readCategories(services: EngineServices, scope: ScopeValues, key: string | undefined, options: CategoryReadOptions | undefined): Promise<CategoryView[]> {
  const range = Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));
  const includeSummary = options?.includeSummary ?? true;
  const includeItems = Math.min(Math.max(Math.trunc(options?.includeItems ?? 0), 0), 1000);
  const rows = key === undefined ? await services.store.listCategories(range) : [await services.store.getCategory(scope, key)].flatMap((row) => (row === undefined ? [] : [row]));
  const order = new Map(services.categories.map((category, index) => [category.key, index]));
  rows.sort((left, right) => (order.get(left.key) ?? Infinity) - (order.get(right.key) ?? Infinity));
  const views: CategoryView[] = [];
  for (const row of rows) {
    const items = includeItems === 0 ? undefined : await services.store.listItems(range, { statuses: ['approved'], categoryKey: row.key }, { limit: includeItems });
    views.push({ ...row, summary: includeSummary ? row.summary : undefined, ...(items === undefined ? {} : { items }) });
  }
  return views;
}
