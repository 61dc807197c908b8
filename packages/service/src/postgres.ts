export {
  createPostgresMemoryServiceStore,
  type PostgresMemoryServiceStoreSettings,
} from './store/postgres-memory-service-store';
export { applyPostgresMigrations, postgresMigrations, type PostgresMigration } from './store/postgres-migrations';
export { createPgBossJobQueue, type PgBossJobQueueSettings } from './queue/pg-boss-job-queue';
export { VERSION } from './version';
