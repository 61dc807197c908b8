import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { MemoryConfigurationError } from '@memplane/core';
import { isMissingPackage, MemoryMissingPackageError } from '../../errors/memory-missing-package-error';

/** The better-sqlite3 `Database` constructor. */
export type SqliteDatabaseConstructor = typeof BetterSqlite3;

// better-sqlite3 is an optional peer dependency: it compiles native code on install, which a
// Postgres deployment never needs. It is loaded on first use, synchronously because opening the
// store is synchronous. (The CommonJS build gets `import.meta.url` from tsup's shims.)
const requireOptional = createRequire(import.meta.url);

let driver: SqliteDatabaseConstructor | undefined;

/**
 * better-sqlite3's `Database`, loaded once. `MemoryMissingPackageError` names the package when it
 * is not installed; `MemoryConfigurationError` when it is installed but cannot load (a native
 * build for another Node version or platform).
 */
export function loadSqliteDriver(load: (packageName: string) => unknown = requireOptional): SqliteDatabaseConstructor {
  if (driver !== undefined) return driver;
  let loaded: unknown;
  try {
    loaded = load('better-sqlite3');
  } catch (cause) {
    if (isMissingPackage(cause, 'better-sqlite3')) {
      throw new MemoryMissingPackageError({ packageName: 'better-sqlite3', feature: 'The embedded SQLite store', cause });
    }
    throw new MemoryConfigurationError({ message: 'better-sqlite3 is installed but cannot be loaded: reinstall it for this Node version and platform.', cause });
  }
  driver = loaded as SqliteDatabaseConstructor;
  return driver;
}
