import type { MemoryRecordSection } from './markdown-section';
import type { MemoryKind } from '@memplane/rules';

const profileKinds: ReadonlyArray<{ kind: MemoryKind; title: string }> = [
  { kind: 'profile', title: 'Profile' },
  { kind: 'preference', title: 'Preferences' },
  { kind: 'goal', title: 'Goals' },
  { kind: 'constraint', title: 'Constraints' },
];

/** The most items per kind in the summary, most recently updated first. */
const itemsPerKind = 10;

/**
 * Summarises the profile, preference, goal and constraint items of a scope, one line per kind,
 * most recent first. A scope with none gets a summary that says so and counts its other records.
 */
export function buildProfile(sections: MemoryRecordSection[], now: string): { summary: string; items: MemoryRecordSection[] } {
  const live = sections.filter((section) => section.expiresAt === undefined || section.expiresAt > now);
  const lines: string[] = [];
  const items: MemoryRecordSection[] = [];
  for (const { kind, title } of profileKinds) {
    const ofKind = live
      .filter((section) => section.kind === kind)
      .sort((left, right) => (left.updatedAt < right.updatedAt ? 1 : -1))
      .slice(0, itemsPerKind);
    if (ofKind.length === 0) continue;
    items.push(...ofKind);
    lines.push(`${title}: ${ofKind.map((section) => (section.summary ?? section.text).replace(/\s+/g, ' ').trim()).join(' | ')}`);
  }
  if (lines.length === 0) {
    return { summary: `No profile, preference, goal or constraint memories yet; ${live.length} other approved memories in this scope.`, items };
  }
  return { summary: lines.join('\n'), items };
}
