import { z } from 'zod';
import { isWellFormedText, wellFormedTextMessage } from './well-formed-text';

/** A JSON value: what metadata may hold, so it survives any provider's storage unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const maximumDepth = 32;

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether a value is JSON, without allocating: the hot path, since nearly every value is. */
function isJsonValue(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return isWellFormedText(value);
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > maximumDepth) return false;
  if (Array.isArray(value)) {
    for (const entry of value) if (!isJsonEntry(entry, depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (!isWellFormedText(key) || !isJsonEntry((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** `isJsonValue` with the primitives, nearly every entry, decided without a recursive call. */
function isJsonEntry(entry: unknown, depth: number): boolean {
  switch (typeof entry) {
    case 'string':
      return isWellFormedText(entry);
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
 * a class instance, a cycle or nesting past 32 levels) or a string or key with a lone surrogate,
 * or returns undefined when all is JSON. A hand-written walk, because a recursive zod union costs
 * several microseconds per key.
 */
export function findNonJsonPath(value: unknown, path: Array<string | number> = [], depth = 0): Array<string | number> | undefined {
  if (depth === 0 && isJsonValue(value, 0)) return undefined;
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path;
  if (value === null || typeof value === 'boolean') return undefined;
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
    if (!isWellFormedText(key)) return [...path, key];
    const found = findNonJsonPath((value as Record<string, unknown>)[key], [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A copy of a value's plain objects and arrays, each property read once, down to the depth
 * JSON may take; anything else (a class instance, a function, a value too deep) is kept as it
 * is, for the check that follows to refuse. The schemas check this copy and return it, so a
 * getter cannot show the check one value and the caller's later reads another.
 */
export function detachJsonValue(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > maximumDepth) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index += 1) copy.push(detachJsonValue(value[index], depth + 1));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  // fromEntries defines each key as an own property, `__proto__` included.
  return Object.fromEntries(Object.keys(value).map((key) => [key, detachJsonValue((value as Record<string, unknown>)[key], depth + 1)]));
}

/** Whether a value is a plain JSON object, as metadata must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainObject(value) && isJsonValue(value, 0)
  );
}

/** The message of a value `findNonJsonPath` pointed at: a lone surrogate is named as such. */
function nonJsonMessage(value: unknown, path: ReadonlyArray<string | number>): string {
  let at = value;
  for (const key of path) at = (at as Record<string | number, unknown> | undefined)?.[key];
  const last = path.at(-1);
  return (typeof at === 'string' && !isWellFormedText(at)) || (typeof last === 'string' && !isWellFormedText(last))
    ? wellFormedTextMessage
    : 'must be a JSON value';
}

/** Any JSON value. The value returned is a copy of the one given, read once ({@link detachJsonValue}). */
export const jsonValueSchema = z
  .unknown()
  .overwrite((value) => detachJsonValue(value))
  .superRefine((value, context) => {
    const path = findNonJsonPath(value);
    if (path !== undefined) context.addIssue({ code: 'custom', message: nonJsonMessage(value, path), path });
  }) as unknown as z.ZodType<JsonValue>;

/**
 * Metadata: a JSON object. Functions, undefined values, NaN, dates, class instances and strings
 * or keys with a lone surrogate are refused. The object returned is a copy of the one given,
 * read once ({@link detachJsonValue}), so what was checked is what the caller gets.
 */
export const metadataSchema = z
  .custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainObject(value),
    'must be a JSON object',
  )
  .overwrite((value) => detachJsonValue(value) as Record<string, unknown>)
  .superRefine((value, context) => {
    const path = findNonJsonPath(value);
    if (path !== undefined) context.addIssue({ code: 'custom', message: nonJsonMessage(value, path), path });
  });

/**
 * The most characters the metadata of one record may take as JSON, as much as its text
 * (`maximumRecordTextLength`): metadata describes a memory, it does not carry documents, and
 * every provider stores and returns it with the record.
 */
export const maximumMetadataLength = 100_000;

/**
 * An upper bound of the length of a JSON value's text (a character escapes to at most six), cut
 * short once it passes `limit`. A walk of a small object costs a fraction of `JSON.stringify`,
 * which only runs when the bound says the metadata may be too long.
 */
function jsonLengthBound(value: unknown, limit: number, depth = 0): number {
  if (typeof value === 'string') return value.length * 6 + 2;
  if (typeof value !== 'object' || value === null) return 24;
  if (depth > 32) return limit + 1;
  let total = 2;
  if (Array.isArray(value)) {
    for (const entry of value) {
      total += jsonLengthBound(entry, limit, depth + 1) + 1;
      if (total > limit) return total;
    }
    return total;
  }
  for (const key in value) {
    total += key.length * 6 + 4 + jsonLengthBound((value as Record<string, unknown>)[key], limit, depth + 1);
    if (total > limit) return total;
  }
  return total;
}

/** Metadata a request stores with a record (writes, captures, corrections): {@link metadataSchema}, at most {@link maximumMetadataLength} characters as JSON. */
export const storedMetadataSchema = metadataSchema.superRefine((value, context) => {
  if (jsonLengthBound(value, maximumMetadataLength) <= maximumMetadataLength) return;
  let length: number;
  try {
    length = JSON.stringify(value).length;
  } catch {
    return; // Not JSON (a cycle): the check above has said so.
  }
  if (length > maximumMetadataLength) {
    context.addIssue({ code: 'custom', message: `must take at most ${maximumMetadataLength} characters as JSON (it takes ${length})` });
  }
});
