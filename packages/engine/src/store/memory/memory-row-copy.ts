/**
 * Deep, frozen copies of rows for the in-memory store. Strings are shared, not duplicated: they
 * are immutable, so sharing is as safe as copying, and a store of 100k items otherwise keeps
 * several copies of every text (what the caller passed, each clone). Objects and arrays are
 * copied, typed arrays too; a row that is not plain data (a cycle, a class instance) falls back to
 * `structuredClone`.
 */

class NotPlainData extends TypeError {}

function plainCopy(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value)) return structuredClone(value);
  if (ancestors.has(value)) throw new NotPlainData('cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((entry) => plainCopy(entry, ancestors));
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) throw new NotPlainData('not a plain object');
    // fromEntries defines own properties, so a "__proto__" key stays a key and never sets the prototype.
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plainCopy(entry, ancestors)]));
  } finally {
    ancestors.delete(value);
  }
}

/** A deep copy that shares strings (see the module comment). */
export function sharedStringCopy<Row>(row: Row): Row {
  try {
    return plainCopy(row, new Set()) as Row;
  } catch (error) {
    if (error instanceof NotPlainData) return structuredClone(row);
    throw error;
  }
}

/** Freezes a value and everything in it (typed arrays cannot be frozen and are left as they are). */
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
}

/** A deep, frozen copy: nothing a caller does to what it passed or got reaches the store. */
export function frozenCopy<Row>(row: Row): Row {
  return deepFreeze(sharedStringCopy(row));
}
