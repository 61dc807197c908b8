import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

const source = (path: string) => new URL(`../../${path}`, import.meta.url).pathname;

// The service and the markdown adapter are not in the shared alias table yet; tests import them from source too.
const postgresSourceAliases: Record<string, string> = {
  '@memplane/service/testing': source('packages/service/src/testing.ts'),
  '@memplane/service/store-support': source('packages/service/src/store-support.ts'),
  '@memplane/service': source('packages/service/src/index.ts'),
  '@memplane/markdown': source('adapters/markdown/src/index.ts'),
  ...workspaceSourceAliases,
};

export default defineProject({
  resolve: { alias: postgresSourceAliases },
  test: {
    name: 'service-postgres',
    include: ['src/**/*.test.ts'],
    // Starts the machine's PostgreSQL if it is stopped and provides a connection string, or why there is none.
    globalSetup: ['./src/test-support/postgres-global-setup.ts'],
    // Worker processes and a real server: generous, never relied on for ordering.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
