import { mcpPostgresVariable, paperclipRunVariables, type McpBridgeLaunch } from './mcp-bridge-launch';

/** The MCP clients the bridge writes a server entry for. */
export type McpBridgeClientId = 'claude-code' | 'cursor' | 'codex';

/** The local folders the plugin declares (manifest `localFolders`), configured per company in Paperclip. */
export const mcpBridgeFolderKeys = {
  /** The workspace (project folder) agents run in: `.mcp.json` and `.cursor/mcp.json` go here. */
  workspace: 'agent-workspace',
  /** The Codex home (`CODEX_HOME`) of the agents' runs: `config.toml` goes here. */
  codexHome: 'codex-home',
} as const;

/** The name of the server entry in every client's file. */
export const bridgeServerName = 'memplane';

/**
 * The variable that marks an entry as written by this plugin. An entry named `memplane` without
 * it (or a Codex table outside the managed block) is someone else's and is never replaced.
 */
export const bridgeMarkerVariable = 'MEMPLANE_MCP_BRIDGE';
/** The marker's value: the plugin id. */
export const bridgeMarkerValue = 'memplane.memory';

/** One client: where its file lives and in which format. */
export interface McpBridgeClient {
  id: McpBridgeClientId;
  /** For people: the settings page and errors. */
  displayName: string;
  /** The local folder the file is under. */
  folderKey: (typeof mcpBridgeFolderKeys)[keyof typeof mcpBridgeFolderKeys];
  /** The file, relative to the folder. */
  relativePath: string;
  format: 'json' | 'toml';
  /** The client's documentation of the file. */
  docs: string;
}

/**
 * The clients and their documented files:
 * - Claude Code, project scope: `.mcp.json` with `mcpServers.<name>: { command, args, env }`, `${VAR}`
 *   and `${VAR:-default}` expanded in command, args and env (https://code.claude.com/docs/en/mcp);
 * - Cursor, project scope: `.cursor/mcp.json`, the same `mcpServers` shape, `${env:NAME}` expanded
 *   (https://cursor.com/docs/mcp);
 * - Codex: `config.toml` in `CODEX_HOME` with `[mcp_servers.<name>]` `command`, `args`, `env` and
 *   `env_vars`, the variables it forwards from its own environment, since a stdio server gets only
 *   a default allow list otherwise (https://developers.openai.com/codex/mcp).
 */
export const mcpBridgeClients: readonly McpBridgeClient[] = [
  { id: 'claude-code', displayName: 'Claude Code', folderKey: mcpBridgeFolderKeys.workspace, relativePath: '.mcp.json', format: 'json', docs: 'https://code.claude.com/docs/en/mcp' },
  { id: 'cursor', displayName: 'Cursor', folderKey: mcpBridgeFolderKeys.workspace, relativePath: '.cursor/mcp.json', format: 'json', docs: 'https://cursor.com/docs/mcp' },
  { id: 'codex', displayName: 'Codex', folderKey: mcpBridgeFolderKeys.codexHome, relativePath: 'config.toml', format: 'toml', docs: 'https://developers.openai.com/codex/mcp' },
];

/** A JSON server entry (`mcpServers.memplane`). */
export interface JsonServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A Codex server table (`[mcp_servers.memplane]`). */
export interface TomlServerEntry extends JsonServerEntry {
  env_vars: string[];
}

/**
 * The variables the server needs from the run, as the client's reference syntax. Each is optional
 * in the reference (`${NAME:-}` for Claude Code), so a workspace opened outside a Paperclip run
 * still loads the file: only memplane's server then refuses to start, not the others.
 */
function references(launch: McpBridgeLaunch, reference: (name: string) => string): Record<string, string> {
  const env: Record<string, string> = { [bridgeMarkerVariable]: bridgeMarkerValue };
  for (const name of paperclipRunVariables) env[name] = reference(name);
  if (launch.postgresUrlVariable !== undefined) env[mcpPostgresVariable] = reference(launch.postgresUrlVariable);
  return env;
}

/** The `.mcp.json` entry of Claude Code. */
export const claudeCodeEntry = (launch: McpBridgeLaunch): JsonServerEntry => ({
  command: launch.command,
  args: [...launch.args],
  env: references(launch, (name) => `\${${name}:-}`),
});

/** The `.cursor/mcp.json` entry of Cursor. */
export const cursorEntry = (launch: McpBridgeLaunch): JsonServerEntry => ({
  command: launch.command,
  args: [...launch.args],
  env: references(launch, (name) => `\${env:${name}}`),
});

/**
 * The Codex table. Codex expands no references in `env`; it forwards `env_vars` from its own
 * environment under their own names, so a Postgres URL in a variable other than
 * `MEMPLANE_POSTGRES_URL` cannot be handed over (the install refuses it).
 */
export function codexEntry(launch: McpBridgeLaunch): TomlServerEntry | { refusal: string } {
  const forwarded: string[] = [...paperclipRunVariables];
  if (launch.postgresUrlVariable !== undefined) {
    if (launch.postgresUrlVariable !== mcpPostgresVariable) {
      return { refusal: `Codex forwards variables under their own names, so the Postgres URL must be in ${mcpPostgresVariable}, not ${launch.postgresUrlVariable}` };
    }
    forwarded.push(mcpPostgresVariable);
  }
  return { command: launch.command, args: [...launch.args], env: { [bridgeMarkerVariable]: bridgeMarkerValue }, env_vars: forwarded };
}
