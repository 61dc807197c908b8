import { resolve } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { VERSION } from '../version';
import { defaultPluginDataDirectory } from '../worker/paperclip-service-host';
import type { PaperclipPluginConfig } from '../worker/paperclip-plugin-config';
import type { McpBridgeTarget } from './mcp-bridge-config';

/** What every client's entry starts: one command, its arguments, and the variables it needs from the run. */
export interface McpBridgeLaunch {
  /** The program (`npx` by default). */
  command: string;
  /** Its arguments: the package, then `--data-dir <folder>` or `--postgres-schema <name>`. */
  args: string[];
  /** With a Postgres target: the variable of the agent's environment that holds the connection string. */
  postgresUrlVariable?: string;
}

/** The variable `memplane-mcp` reads its Postgres connection string from. */
export const mcpPostgresVariable = 'MEMPLANE_POSTGRES_URL';

/** The run variables Paperclip sets and `memplane-mcp` binds to (company and agent required, the rest when the run has them). */
export const paperclipRunVariables = ['PAPERCLIP_COMPANY_ID', 'PAPERCLIP_AGENT_ID', 'PAPERCLIP_RUN_ID', 'PAPERCLIP_PROJECT_ID', 'PAPERCLIP_TASK_ID'] as const;

/** The default command: the MCP package pinned to this plugin's version, so the bridge and the plugin move together. */
export const defaultBridgeCommand = (): string[] => ['npx', '-y', `@memplane/mcp@${VERSION}`];

/**
 * Why a value may carry a credential, or undefined when it provably does not. A URL with user
 * information (`scheme://user:password@`), any Postgres URL, or a `password=` style pair is
 * refused: the bridge names a secret by its variable, it never writes one.
 */
export function credentialRefusal(value: string): string | undefined {
  if (/[a-z][a-z0-9+.-]*:\/\/[^\s/?#]*@/i.test(value)) return 'holds a URL with user information (a credential)';
  // user:password@host with the scheme lost (a path resolver folds `//`), or never written.
  if (/[^\s/@:]+:[^\s/@]+@[^\s/@]+/.test(value)) return 'holds user:password@host (a credential)';
  if (/\bpostgres(?:ql)?:\/\//i.test(value)) return 'holds a Postgres URL; name the variable that carries it (mcpBridge.target.postgres.urlVariable) instead';
  // Any key ending in one of these (PGPASSWORD=, --api-key=, sslpassword:) counts.
  if (/(?:password|passwd|pwd|token|secret|api[_-]?key|credentials?)\s*[=:]/i.test(value)) return 'holds a credential-like key=value pair';
  return undefined;
}

function targetOf(config: PaperclipPluginConfig, fallbackDataDirectory: string | undefined): McpBridgeTarget {
  const explicit = config.mcpBridge?.target;
  if (explicit !== undefined) return explicit;
  if (config.service?.mode === 'http') {
    throw new MemoryConfigurationError({
      message:
        'The service runs at a memplane serve (http mode), which a stdio MCP server cannot reach: set mcpBridge.target to that server\'s data folder ({ "dataDirectory": ... }) or Postgres ({ "postgres": { "urlVariable": ... } })',
    });
  }
  const postgres = config.storage?.postgres;
  if (postgres !== undefined) return { postgres: { urlVariable: mcpPostgresVariable, ...(postgres.schema === undefined ? {} : { schema: postgres.schema }) } };
  return { dataDirectory: resolve(config.storage?.dataDirectory ?? fallbackDataDirectory ?? defaultPluginDataDirectory()) };
}

/**
 * The command every client entry runs, from the company's config: the worker's own data folder or
 * Postgres in worker mode, the explicit `mcpBridge.target` otherwise. Throws
 * `MemoryConfigurationError` (nothing to write) when http mode names no target, or when any word
 * to be written could carry a credential: the check cannot prove it safe, so it refuses.
 */
export function resolveBridgeLaunch(config: PaperclipPluginConfig, fallbackDataDirectory: string | undefined): McpBridgeLaunch {
  const [command, ...packageArgs] = config.mcpBridge?.command ?? defaultBridgeCommand();
  if (command === undefined) throw new MemoryConfigurationError({ message: 'mcpBridge.command is empty' });
  const target = targetOf(config, fallbackDataDirectory);
  // Checked as configured too: resolving a path can fold a URL's `//` and hide what it was.
  const configured = 'dataDirectory' in target ? target.dataDirectory : target.postgres.urlVariable;
  const configuredRefusal = credentialRefusal(configured);
  if (configuredRefusal !== undefined) throw new MemoryConfigurationError({ message: `The MCP bridge target ${configuredRefusal}; it is never written into an agent's files` });
  const args =
    'dataDirectory' in target
      ? [...packageArgs, '--data-dir', resolve(target.dataDirectory)]
      : [...packageArgs, ...(target.postgres.schema === undefined ? [] : ['--postgres-schema', target.postgres.schema])];
  for (const [index, word] of [command, ...args].entries()) {
    const refusal = credentialRefusal(word);
    if (refusal !== undefined) throw new MemoryConfigurationError({ message: `The MCP bridge command word ${index} ${refusal}; it is never written into an agent's files` });
  }
  return { command, args, ...('postgres' in target ? { postgresUrlVariable: target.postgres.urlVariable } : {}) };
}
