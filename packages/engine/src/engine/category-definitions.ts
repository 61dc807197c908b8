import { MemoryConfigurationError } from '@memplane/core';
import { memoryKinds, tokenize } from '@memplane/rules';
import { z } from 'zod';
import { canonicalHash } from '../support/canonical-hash';
import { taxonomyRulesVersion } from '../taxonomy/item-governance';
import type { ItemKind } from '../store/engine-store-rows';

/** One category of the user's taxonomy (§2.3). */
export interface CategoryDefinition {
  /** Stable key, such as `preferences`. Lowercase letters, digits, `_` and `-`. */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Kinds that belong here without further evidence. */
  readonly kinds?: readonly ItemKind[] | undefined;
  /** Words that route an item here when its text holds them. */
  readonly keywords?: readonly string[] | undefined;
}

/** The categories used when none are given: the taxonomy's three groups, split by purpose. */
export const defaultCategories: readonly CategoryDefinition[] = [
  { key: 'about_user', name: 'About the user', description: 'Identity, preferences and long-term goals.', kinds: ['profile', 'preference', 'goal'] },
  { key: 'rules', name: 'Rules', description: 'Constraints that must be followed.', kinds: ['constraint'] },
  { key: 'project', name: 'Project', description: 'Project context, decisions and focus areas.', kinds: ['project', 'decision', 'keyword_set'] },
  { key: 'events', name: 'Events and facts', description: 'Facts, hypotheses and notes from sessions.', kinds: ['fact', 'hypothesis', 'note'] },
  { key: 'tasks', name: 'Tasks', description: 'Action items and pending work.', kinds: ['todo'] },
];

const categorySchema = z.strictObject({
  key: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be lowercase letters, digits, _ or -'),
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  kinds: z.array(z.enum(memoryKinds)).optional(),
  keywords: z.array(z.string().min(1).max(100)).max(200).optional(),
});

/** Checks the categories and returns them with the taxonomy version (hash of rules and categories). */
export function resolveCategories(categories: readonly CategoryDefinition[] | undefined): { categories: readonly CategoryDefinition[]; taxonomyVersion: string } {
  const chosen = categories ?? defaultCategories;
  const parsed = z.array(categorySchema).min(1, 'give at least one category').safeParse(chosen);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryConfigurationError({ message: `Invalid categories: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` });
  }
  const keys = new Set<string>();
  for (const category of parsed.data) {
    if (keys.has(category.key)) throw new MemoryConfigurationError({ message: `Invalid categories: key "${category.key}" is used twice.` });
    keys.add(category.key);
  }
  return { categories: parsed.data, taxonomyVersion: `${taxonomyRulesVersion}+${canonicalHash(parsed.data).slice(0, 16)}` };
}

/** The analysed terms that describe a category (name, description, keywords). */
export function categoryTerms(category: CategoryDefinition): Set<string> {
  return new Set(tokenize(`${category.name} ${category.description} ${(category.keywords ?? []).join(' ')}`));
}

/**
 * The deterministic router: the categories whose kinds include the item's kind, plus those whose
 * keywords appear in its text. An item that matches none goes to the first category that takes
 * its kind, or the first category.
 */
export function routeItemToCategories(categories: readonly CategoryDefinition[], kind: ItemKind, tokens: readonly string[]): string[] {
  const tokenSet = new Set(tokens);
  const chosen: string[] = [];
  for (const category of categories) {
    const byKind = category.kinds?.includes(kind) ?? false;
    const byKeyword = (category.keywords ?? []).some((keyword) => tokenize(keyword).some((term) => tokenSet.has(term)));
    if (byKind || byKeyword) chosen.push(category.key);
  }
  if (chosen.length === 0 && categories[0] !== undefined) chosen.push(categories[0].key);
  return chosen;
}
