import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

// Like the packages' tests, the demo's test runs the workspace packages from their sources.
export default defineProject({
  resolve: { alias: workspaceSourceAliases },
  test: { name: 'service-demo', include: ['src/**/*.test.ts'] },
});
