import { stableStringify } from '@memplane/core';

/** Whether metadata has every top-level value of the filter (deep equality). */
export function matchesMetadataFilter(
  metadata: Record<string, unknown> | undefined,
  filter: Record<string, unknown> | undefined,
): boolean {
  if (filter === undefined) return true;
  for (const [key, wanted] of Object.entries(filter)) {
    if (metadata === undefined || !Object.hasOwn(metadata, key)) return false;
    if (stableStringify(metadata[key]) !== stableStringify(wanted)) return false;
  }
  return true;
}
