import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

const mine: Record<string, string> = { '@memplane/service/sqlite': '/tmp/host-stubs/sqlite.ts', '@memplane/service/testing': '/work/main/packages/service/src/testing.ts', '@memplane/service/postgres': '/work/main/packages/service/src/postgres.ts', '@memplane/service/store': '/work/main/packages/service/src/store.ts', '@memplane/service': '/tmp/host-stubs/service.ts' };
export default defineProject({
  resolve: { alias: [...Object.entries(mine), ...Object.entries(workspaceSourceAliases)].map(([find, replacement]) => ({ find, replacement })) },
  test: { name: 'host', include: ['src/**/*.test.ts'] },
});
