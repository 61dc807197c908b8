import { z } from 'zod';

/** A JSON value: what metadata may hold, so it survives any provider's storage unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const maximumDepth = 32;

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether a value is JSON, without allocating: the hot path, since nearly every value is. */
function isJsonValue(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > maximumDepth) return false;
  if (Array.isArray(value)) {
    for (const entry of value) if (!isJsonEntry(entry, depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (!isJsonEntry((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** `isJsonValue` with the primitives, nearly every entry, decided without a recursive call. */
function isJsonEntry(entry: unknown, depth: number): boolean {
  switch (typeof entry) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(entry);
    default:
      return entry === null || isJsonValue(entry, depth);
  }
}

/**
 * Finds the path of the first value that is not JSON (a function, undefined, NaN, a Date,
 * a class instance, a cycle or nesting past 32 levels), or returns undefined when all is JSON.
 * A hand-written walk, because a recursive zod union costs several microseconds per key.
 */
export function findNonJsonPath(value: unknown, path: Array<string | number> = [], depth = 0): Array<string | number> | undefined {
  if (depth === 0 && isJsonValue(value, 0)) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (typeof value !== 'object' || depth > maximumDepth) return path;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findNonJsonPath(value[index], [...path, index], depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return path;
  for (const key of Object.keys(value)) {
    const found = findNonJsonPath((value as Record<string, unknown>)[key], [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether a value is a plain JSON object, as metadata must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainObject(value) && isJsonValue(value, 0)
  );
}

/** Any JSON value. */
export const jsonValueSchema = z.unknown().superRefine((value, context) => {
  const path = findNonJsonPath(value);
  if (path !== undefined) context.addIssue({ code: 'custom', message: 'must be a JSON value', path });
}) as unknown as z.ZodType<JsonValue>;

/** Metadata: a JSON object. Functions, undefined values, NaN, dates and class instances are refused. */
export const metadataSchema = z
  .custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainObject(value),
    'must be a JSON object',
  )
  .superRefine((value, context) => {
    const path = findNonJsonPath(value);
    if (path !== undefined) context.addIssue({ code: 'custom', message: 'must be a JSON value', path });
  });
