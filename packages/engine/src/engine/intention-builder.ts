import type { EngineStoreSession } from '../store/engine-store';
import type { IntentionRow, ItemRow, ScopeValues } from '../store/engine-store-rows';
import type { EngineServices } from './engine-services';

/** Most entries per intention list. */
const listLimit = 10;

/** The content of an intention, without version and stamps. */
export interface IntentionContent {
  readonly goals: readonly string[];
  readonly constraints: readonly string[];
  readonly progress: readonly string[];
  readonly categoryKeys: readonly string[];
  readonly sourceItemIds: readonly string[];
}

function newest(items: readonly ItemRow[], kinds: readonly string[]): ItemRow[] {
  return items
    .filter((item) => kinds.includes(item.kind))
    .sort((left, right) => (left.updatedAt < right.updatedAt ? 1 : left.updatedAt > right.updatedAt ? -1 : left.id < right.id ? -1 : 1))
    .slice(0, listLimit);
}

/** The intention content of a set of items: approved, unmerged, unexpired goals, constraints and progress. */
export function intentionFromItems(items: readonly ItemRow[], now: string): IntentionContent {
  const all = items.filter((item) => item.status === 'approved' && item.mergedInto === undefined && (item.expiresAt === undefined || item.expiresAt > now));
  const goals = newest(all, ['goal']);
  const constraints = newest(all, ['constraint']);
  const progress = newest(all, ['decision', 'todo']);
  const used = [...goals, ...constraints, ...progress];
  return {
    goals: goals.map((item) => item.text),
    constraints: constraints.map((item) => item.text),
    progress: progress.map((item) => item.text),
    categoryKeys: [...new Set(used.flatMap((item) => item.categoryKeys))].sort(),
    sourceItemIds: used.map((item) => item.id).sort(),
  };
}

/**
 * The deterministic intention of a scope (§2.4): its approved goals, constraints, and progress
 * (decisions and open todos), newest first, with the categories they sit in.
 */
export async function deriveIntention(session: EngineStoreSession, services: EngineServices, scope: ScopeValues, extra: readonly ItemRow[] = []): Promise<IntentionContent> {
  const range = Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));
  const now = services.now();
  const stored = await session.listItems(range, { statuses: ['approved'], kinds: ['goal', 'constraint', 'decision', 'todo'], notExpiredAt: now }, { limit: 2000 });
  const byId = new Map(stored.map((item) => [item.id, item]));
  for (const item of extra) byId.set(item.id, item);
  return intentionFromItems([...byId.values()], now);
}

/** Whether an intention's content differs from the stored one. */
export function intentionChanged(latest: IntentionRow | undefined, next: IntentionContent): boolean {
  if (latest === undefined) return next.goals.length + next.constraints.length + next.progress.length > 0;
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((entry, index) => entry === b[index]);
  return !(same(latest.goals, next.goals) && same(latest.constraints, next.constraints) && same(latest.progress, next.progress) && same(latest.categoryKeys, next.categoryKeys));
}

/** The next intention row of a scope. */
export function nextIntentionRow(services: EngineServices, scope: ScopeValues, latest: IntentionRow | undefined, content: IntentionContent): IntentionRow {
  return { id: services.newId('int'), scope, version: (latest?.version ?? 0) + 1, ...content, pipelineRevision: services.pipelineRevision, createdAt: services.now() };
}
