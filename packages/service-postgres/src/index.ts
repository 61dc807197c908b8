export {
  createPostgresMemoryServiceStore,
  type PostgresMemoryServiceStoreSettings,
} from './store/postgres-memory-service-store';
export { applyPostgresMigrations, postgresMigrations, type PostgresMigration } from './store/postgres-migrations';
export { VERSION } from './version';
