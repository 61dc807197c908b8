import type { PluginLocalFolderDeclaration } from '@paperclipai/plugin-sdk';
import { mcpBridgeFolderKeys } from '../mcp-bridge/mcp-bridge-clients';

/**
 * The folders the MCP bridge writes into, configured per company in Paperclip's plugin settings.
 * Paperclip has no API to edit an agent's adapter config, so the bridge writes the files the
 * agents' own clients read from these folders.
 */
export const mcpBridgeLocalFolders: readonly PluginLocalFolderDeclaration[] = [
  {
    folderKey: mcpBridgeFolderKeys.workspace,
    displayName: 'Agent workspace (Claude Code, Cursor)',
    description: 'The project folder the agents run in. The memplane MCP bridge adds its server to .mcp.json (Claude Code) and .cursor/mcp.json (Cursor) there, keeping every other server.',
    access: 'readWrite',
  },
  {
    folderKey: mcpBridgeFolderKeys.codexHome,
    displayName: 'Codex home (CODEX_HOME)',
    description: "The Codex home of the agents' runs. The memplane MCP bridge adds an [mcp_servers.memplane] block to its config.toml, keeping the rest of the file as it is.",
    access: 'readWrite',
  },
];
