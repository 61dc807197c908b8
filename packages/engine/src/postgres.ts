/**
 * `@memplane/engine/postgres`: the Postgres engine store (node-postgres or PGlite, optional
 * pgvector HNSW index). A subpath of its own, so only projects that use it need pg installed.
 */
export { createPostgresEngineStore, type PostgresEngineStoreSettings } from './store/postgres/postgres-engine-store';
export type { PgvectorIndexSettings } from './store/postgres/postgres-pgvector-index';
