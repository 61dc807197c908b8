import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

const source = (path: string) => new URL(`../../${path}`, import.meta.url).pathname;

// The Postgres test loads @memplane/service-postgres, which imports the service's store support: both from source too.
const serverSourceAliases: Record<string, string> = {
  '@memplane/service/store-support': source('packages/service/src/store-support.ts'),
  '@memplane/service-postgres': source('packages/service-postgres/src/index.ts'),
  ...workspaceSourceAliases,
};

export default defineProject({
  resolve: { alias: serverSourceAliases },
  test: { name: 'server', include: ['src/**/*.test.ts', 'inspector/**/*.test.ts'] },
});
