import type { Database, Statement } from 'better-sqlite3';

/** Caches binding reads of one connection, dropped whenever the bindings may have changed. */
export interface SqliteBindingCache {
  /** The cached value of `key`, or what `load` reads (then cached). */
  read<Value>(key: string, load: () => Value): Value;
  /** Drops everything; called after every local binding or target write. */
  clear(): void;
}

const maximumEntries = 10_000;

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Resolution runs on every operation, so its reads are cached. The cache is exact: local writes
 * clear it, and `PRAGMA data_version` (which moves when another connection, in this process or
 * another one, commits to the file) clears it before any read that could see a stale entry.
 * Cached values are frozen, since every caller shares them.
 */
export function createSqliteBindingCache(database: () => Database): SqliteBindingCache {
  let dataVersion: Statement | undefined;
  let seenVersion: unknown;
  const entries = new Map<string, unknown>();
  return {
    read(key, load) {
      dataVersion ??= database().prepare('PRAGMA data_version').pluck();
      const version = dataVersion.get();
      if (version !== seenVersion) {
        entries.clear();
        seenVersion = version;
      }
      if (entries.has(key)) return entries.get(key) as ReturnType<typeof load>;
      const value = deepFreeze(load());
      if (entries.size >= maximumEntries) entries.clear();
      entries.set(key, value);
      return value;
    },
    clear() {
      entries.clear();
    },
  };
}
