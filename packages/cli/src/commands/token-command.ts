import { lazyCommand } from './lazy-command';

/** `memplane token ...`: the bearer tokens of memplane serve and memplane-mcp, one store in the service's database, from `@memplane/host`. */
export const tokenCommand = lazyCommand({
  name: 'token',
  summary: 'Issue, list and revoke the bearer tokens of memplane serve and memplane-mcp (from @memplane/host).',
  usage: 'memplane token issue (--operator <id> | --admin --company <id> | --agent <id> --company <id> [--project <id>]) | memplane token list | memplane token revoke <token-id>',
  packageName: '@memplane/host',
  load: async () => (await import('@memplane/host')).createTokenCommand(),
});
