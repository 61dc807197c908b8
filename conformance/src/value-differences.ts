import { isDeepStrictEqual } from 'node:util';
import { previewJson } from './json-preview';

/** How many characters each value named in a difference may take. */
const valueBudget = 120;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldPath(parent: string, key: string): string {
  const plainKey = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : undefined;
  if (plainKey !== undefined) return parent === '' ? plainKey : `${parent}.${plainKey}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

function shown(value: unknown): string {
  return value === undefined ? 'nothing' : previewJson(value, valueBudget);
}

function collect(actual: unknown, expected: unknown, path: string, found: string[], limit: number): void {
  if (found.length >= limit || isDeepStrictEqual(actual, expected)) return;
  const where = path === '' ? 'the value' : path;
  if (isRecord(actual) && isRecord(expected)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      collect(actual[key], expected[key], fieldPath(path, key), found, limit);
    }
    return;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) {
      found.push(`${where}: expected ${expected.length} items, got ${actual.length}`);
      return;
    }
    actual.forEach((item, index) => collect(item, expected[index], `${path}[${index}]`, found, limit));
    return;
  }
  found.push(`${where}: expected ${shown(expected)}, got ${shown(actual)}`);
}

/**
 * Where `actual` differs from `expected`, field by field: `source.issueId: expected "issue-1", got
 * nothing`. Nested objects are compared key by key, arrays item by item (a length difference is
 * one entry). At most `limit` entries, in the order of the expected fields.
 */
export function describeDifferences(actual: unknown, expected: unknown, limit = 5): string[] {
  const found: string[] = [];
  collect(actual, expected, '', found, limit + 1);
  return found.length > limit ? [...found.slice(0, limit), `and more differences`] : found;
}
