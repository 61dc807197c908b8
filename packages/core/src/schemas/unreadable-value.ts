/*
 * A value handed to a parser can throw while it is read: a getter, a proxy trap, a revoked
 * proxy. The parsers turn that into their typed error; these helpers name where it happened
 * without ever reading what was thrown (a thrown value can be as hostile as the one read).
 */

/** The message of a field that threw while it was read. */
export const unreadableMessage = 'could not be read: a getter or proxy threw';

const maximumDepth = 32;

/**
 * The path of the first part of `value` that throws when it is read (its prototype, its keys,
 * a property), found by reading it again with every step guarded; `[]` when the value itself
 * cannot be read, undefined when this second reading finds nothing (a getter that throws only
 * sometimes). Only called once a parse has thrown, so the extra reads cost nothing on valid input.
 */
export function findUnreadablePath(value: unknown, path: Array<string | number> = [], seen = new Set<object>()): Array<string | number> | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  if (path.length > maximumDepth || seen.has(value)) return undefined;
  seen.add(value);
  let keys: Array<string | symbol>;
  let isArray: boolean;
  try {
    isArray = Array.isArray(value);
    Object.getPrototypeOf(value);
    keys = Reflect.ownKeys(value);
  } catch {
    return path;
  }
  for (const key of keys) {
    if (typeof key === 'symbol') continue;
    const step = isArray && /^(?:0|[1-9]\d*)$/.test(key) ? Number(key) : key;
    let entry: unknown;
    try {
      Reflect.getOwnPropertyDescriptor(value, key);
      entry = (value as Record<string, unknown>)[key];
    } catch {
      return [...path, step];
    }
    const found = findUnreadablePath(entry, [...path, step], seen);
    if (found !== undefined) return found;
  }
  return undefined;
}
