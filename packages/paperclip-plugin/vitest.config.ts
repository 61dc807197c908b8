import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

const source = (path: string) => new URL(`../../${path}`, import.meta.url).pathname;

// Postgres hosting loads @memplane/service-postgres, which imports the service's store support: both from source too.
const pluginSourceAliases: Record<string, string> = {
  '@memplane/service/store-support': source('packages/service/src/store-support.ts'),
  '@memplane/service-postgres': source('packages/service-postgres/src/index.ts'),
  // The http-mode tests start a real memplane serve in process.
  '@memplane/server': source('packages/server/src/index.ts'),
  ...workspaceSourceAliases,
};

export default defineProject({
  resolve: { alias: pluginSourceAliases },
  test: { name: 'paperclip-plugin', include: ['src/**/*.test.ts'] },
});
