/**
 * `@memplane/engine/pg-boss`: the queued runner on pg-boss (durable step jobs, retries, timeouts,
 * resumption after a crash). A subpath of its own, so only projects that use it need pg-boss.
 */
export { createPgBossRunner, type PgBossRunner, type PgBossRunnerSettings } from './runner/pg-boss-runner';
export type { RunResolver } from './runner/engine-runner';
