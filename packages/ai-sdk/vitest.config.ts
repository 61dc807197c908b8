import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  // The example under examples/ imports the package by name; here it runs from the sources.
  resolve: { alias: { '@memplane/ai-sdk': fileURLToPath(new URL('./src/index.ts', import.meta.url)), ...workspaceSourceAliases } },
  test: { name: 'ai-sdk', include: ['src/**/*.test.ts'] },
});
