/**
 * `@memplane/service/pg-boss`: a durable job queue on pg-boss for hook deliveries, extraction
 * polls and retention passes, shared by worker processes on any machine. A subpath of its own,
 * so only projects that use it need `pg-boss` installed.
 */
export { createPgBossJobQueue, type PgBossJobQueueSettings } from './queue/pg-boss/pg-boss-job-queue';
