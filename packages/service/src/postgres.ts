/**
 * `@memplane/service/postgres`: the service's store on PostgreSQL (node-postgres), with versioned
 * migrations. A subpath of its own, so only projects that use it need `pg` installed.
 */
export {
  createPostgresMemoryServiceStore,
  type PostgresMemoryServiceStoreSettings,
} from './store/postgres/postgres-memory-service-store';
export { applyPostgresMigrations, postgresMigrations, type PostgresMigration } from './store/postgres/postgres-migrations';
