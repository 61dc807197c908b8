import { stableStringify } from '@memplane/core';

/**
 * Whether record metadata passes a `metadataFilter`: every top-level key of the filter must be
 * present in the metadata with a deep-equal value (object key order does not matter). An empty
 * or absent filter passes everything; a record without metadata passes only an empty filter.
 */
export function matchesMetadataFilter(
  metadata: Record<string, unknown> | undefined,
  filter: Record<string, unknown> | undefined,
): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(
    ([key, wanted]) =>
      metadata !== undefined &&
      Object.hasOwn(metadata, key) &&
      stableStringify(metadata[key]) === stableStringify(wanted),
  );
}
