/**
 * `@memplane/engine/sqlite`: the SQLite engine store (better-sqlite3, brute-force vectors through
 * sqlite-vec). A subpath of its own, so only projects that use it need better-sqlite3 installed.
 */
export { createSqliteEngineStore, type SqliteEngineStoreSettings } from './store/sqlite/sqlite-engine-store';
