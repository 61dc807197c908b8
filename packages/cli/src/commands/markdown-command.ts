import { lazyCommand } from './lazy-command';

/** `memplane markdown ...`: the markdown provider's maintenance commands, from `@memplane/markdown`. */
export const markdownCommand = lazyCommand({
  name: 'markdown',
  summary: 'Reindex, inspect and query a markdown memory root (from @memplane/markdown).',
  usage: 'memplane markdown <reindex|stats|query|list|get|import> --root <folder> [options]',
  packageName: '@memplane/markdown',
  load: async () => (await import('@memplane/markdown/cli')).markdownCommand,
});
