import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases },
  test: {
    name: 'engine',
    include: ['src/**/*.test.ts'],
    // The Postgres tests share @memplane/service's setup: it starts the machine's PostgreSQL 15
    // when it is stopped and provides a connection string, or the reason there is none (they then skip visibly).
    globalSetup: ['../service/src/test-support/postgres/postgres-global-setup.ts'],
    // PGlite takes seconds to start and the worker-process tests wait on a real server.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
