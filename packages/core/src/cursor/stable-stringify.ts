/** JSON with object keys sorted, so equal values always give equal strings. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const record = value as Record<string, unknown>;
  // A loop over sorted keys, without entry pairs: cursors canonicalise a scope on every page.
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const entry = record[key];
    if (entry === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${stableStringify(entry)}`;
  }
  return `${text}}`;
}
