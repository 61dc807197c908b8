import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases },
  test: { name: 'create-memplane-adapter', include: ['src/**/*.test.ts'] },
});
