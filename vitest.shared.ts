import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Inside this repository, tests import workspace packages from their sources, so a test
 * never runs against a stale build. Published packages resolve through their `exports`.
 * More specific specifiers come first: the first matching alias wins.
 */
export const workspaceSourceAliases: Record<string, string> = {
  '@memplane/rules/sqlite': `${root}packages/rules/src/sqlite/index.ts`,
  '@memplane/rules': `${root}packages/rules/src/index.ts`,
  '@memplane/core': `${root}packages/core/src/index.ts`,
  '@memplane/test-server/with-vitest': `${root}packages/test-server/src/with-vitest.ts`,
  '@memplane/test-server': `${root}packages/test-server/src/index.ts`,
  '@memplane/conformance/runner': `${root}conformance/src/runner.ts`,
  '@memplane/conformance': `${root}conformance/src/index.ts`,
  '@memplane/memory/provider': `${root}adapters/memory/src/provider.ts`,
  '@memplane/memory': `${root}adapters/memory/src/index.ts`,
  '@memplane/mem0/provider': `${root}adapters/mem0/src/provider.ts`,
  '@memplane/supermemory/provider': `${root}adapters/supermemory/src/provider.ts`,
  '@memplane/agentcore/provider': `${root}adapters/agentcore/src/provider.ts`,
  '@memplane/markdown/provider': `${root}adapters/markdown/src/provider.ts`,
  '@memplane/markdown/cli': `${root}adapters/markdown/src/cli.ts`,
  '@memplane/markdown': `${root}adapters/markdown/src/index.ts`,
  '@memplane-fixtures/notebook-provider/provider': `${root}internal/fixture-provider/src/provider.ts`,
  '@memplane-fixtures/notebook-provider': `${root}internal/fixture-provider/src/index.ts`,
  '@memplane/service/testing': `${root}packages/service/src/testing.ts`,
  '@memplane/service/sqlite': `${root}packages/service/src/sqlite.ts`,
  '@memplane/service/postgres': `${root}packages/service/src/postgres.ts`,
  '@memplane/service/pg-boss': `${root}packages/service/src/pg-boss.ts`,
  '@memplane/service/store': `${root}packages/service/src/store.ts`,
  '@memplane/service': `${root}packages/service/src/index.ts`,
  '@memplane/host': `${root}packages/host/src/index.ts`,
  '@memplane/mcp': `${root}packages/mcp/src/index.ts`,
  '@memplane/server': `${root}packages/server/src/index.ts`,
};
