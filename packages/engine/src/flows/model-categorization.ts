import { z } from 'zod';
import type { CategoryDefinition } from '../engine/category-definitions';
import { generateStructured, type CallUsage } from '../profiles/model-calls';
import type { ResolvedLlmProfile } from '../profiles/llm-profiles';
import type { ItemRow } from '../store/engine-store-rows';

const assignmentSchema = z.object({
  assignments: z.array(z.object({ item: z.number().int().min(0), categories: z.array(z.string()).max(20) })).max(1000),
});

/**
 * Maps items onto the user's categories with the profile's model. Keys the model invents are
 * dropped; an item the model leaves without a known category keeps the rule routing's answer.
 */
export async function categorizeWithModel(
  profile: ResolvedLlmProfile,
  categories: readonly CategoryDefinition[],
  items: readonly ItemRow[],
  fallback: (item: ItemRow) => string[],
  signal: AbortSignal,
): Promise<{ items: ItemRow[]; usage: CallUsage }> {
  const known = new Set(categories.map((category) => category.key));
  const { value, usage } = await generateStructured(profile, {
    schema: assignmentSchema,
    system: 'Assign each memory item to the categories it belongs to, by key. Answer {"assignments": [{"item": n, "categories": [keys]}]}.',
    prompt: `Categories:\n${categories.map((category) => `${category.key}: ${category.name}. ${category.description}`).join('\n')}\n\nItems:\n${items.map((item, index) => `[${index}] (${item.kind}) ${item.text}`).join('\n')}`,
    signal,
    operation: 'categorize_items',
  });
  const chosen = new Map<number, string[]>();
  for (const assignment of value.assignments) {
    const keys = [...new Set(assignment.categories.filter((key) => known.has(key)))];
    if (keys.length > 0 && assignment.item < items.length) chosen.set(assignment.item, keys);
  }
  return { items: items.map((item, index) => ({ ...item, categoryKeys: chosen.get(index) ?? fallback(item) })), usage };
}
