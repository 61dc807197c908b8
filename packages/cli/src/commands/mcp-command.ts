import { lazyCommand } from './lazy-command';

/** `memplane mcp ...`: the MCP server and its token commands, from `@memplane/mcp`. */
export const mcpCommand = lazyCommand({
  name: 'mcp',
  summary: 'Serve memory to MCP clients over stdio or Streamable HTTP, and manage its tokens (from @memplane/mcp).',
  usage: 'memplane mcp [--transport stdio|http] [--data-dir <folder>] [--company <id> --agent <id>] | memplane mcp token <issue|list|revoke>',
  packageName: '@memplane/mcp',
  load: async () => (await import('@memplane/mcp')).mcpCommand,
});
