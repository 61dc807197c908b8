import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases },
  test: {
    name: 'service',
    include: ['src/**/*.test.ts'],
    // Starts the machine's PostgreSQL if it is stopped and provides a connection string, or why
    // there is none (the Postgres tests then skip, saying so).
    globalSetup: ['./src/test-support/postgres/postgres-global-setup.ts'],
    // The Postgres tests start worker processes and wait on a real server: generous, never relied on for ordering.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
