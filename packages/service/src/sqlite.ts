/**
 * `@memplane/service/sqlite`: the embedded store on better-sqlite3, with versioned migrations.
 * A subpath of its own, so only projects that use it need `better-sqlite3` installed (the
 * service's default in-memory store loads it only when no store is given).
 */
export { createSqliteMemoryServiceStore, type SqliteMemoryServiceStoreSettings } from './store/sqlite/sqlite-memory-service-store';
export { sqliteMigrations, type SqliteMigration } from './store/sqlite/sqlite-migrations';
