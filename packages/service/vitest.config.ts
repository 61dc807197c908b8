import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

// The markdown adapter is not in the shared alias table yet; tests import it from source too.
const serviceSourceAliases: Record<string, string> = {
  '@memplane/markdown': new URL('../../adapters/markdown/src/index.ts', import.meta.url).pathname,
  ...workspaceSourceAliases,
};

export default defineProject({
  resolve: { alias: serviceSourceAliases },
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
