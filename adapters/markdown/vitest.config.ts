import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases },
  test: { name: 'markdown', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
