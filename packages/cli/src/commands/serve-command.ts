import { lazyCommand } from './lazy-command';

/** `memplane serve ...`: the HTTP API with the inspector, and its token commands, from `@memplane/server`. */
export const serveCommand = lazyCommand({
  name: 'serve',
  summary: 'Serve the memory service over HTTP with the inspector, and manage its tokens (from @memplane/server).',
  usage: 'memplane serve [--port 4680] [--host 127.0.0.1] [--data-dir <folder>] [--database-url <postgres url>] | memplane serve token <issue|list|revoke>',
  packageName: '@memplane/server',
  load: async () => (await import('@memplane/server')).serveCommand,
});
