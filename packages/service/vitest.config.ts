import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

// The markdown adapter is not in the shared alias table yet; tests import it from source too.
const serviceSourceAliases: Record<string, string> = {
  '@memplane/markdown': new URL('../../adapters/markdown/src/index.ts', import.meta.url).pathname,
  ...workspaceSourceAliases,
};

export default defineProject({
  resolve: { alias: serviceSourceAliases },
  test: { name: 'service', include: ['src/**/*.test.ts'] },
});
