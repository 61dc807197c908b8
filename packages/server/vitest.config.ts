import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases },
  test: { name: 'server', include: ['src/**/*.test.ts', 'inspector/**/*.test.ts'] },
});
