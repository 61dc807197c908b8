import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

const source = (path: string) => new URL(`../../${path}`, import.meta.url).pathname;

const pluginSourceAliases: Record<string, string> = {
  // The http-mode tests start a real memplane serve in process.
  '@memplane/server': source('packages/server/src/index.ts'),
  ...workspaceSourceAliases,
};

export default defineProject({
  resolve: { alias: pluginSourceAliases },
  test: { name: 'paperclip-plugin', include: ['src/**/*.test.ts'] },
});
