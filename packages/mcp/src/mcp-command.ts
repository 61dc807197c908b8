import { resolve } from 'node:path';
import { MemoryConfigurationError, MemoryError, MemoryValidationError } from '@memplane/core';
import { createTokenCommand, readHostConfig } from '@memplane/host';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { boundScopeFields, resolveBoundScope, scopeFieldSources } from './mcp-bound-scope';
import { serveMcp } from './mcp-serve';
import { VERSION } from './version';

/** Where the command writes; the same shape as `CommandOutput` of `@memplane/cli`. */
export interface McpCommandOutput {
  /** Writes to standard output (tokens, listings; on stdio the server never writes here itself). */
  stdout(text: string): void;
  /** Writes to standard error (progress lines and errors). */
  stderr(text: string): void;
}

/** The `memplane mcp` command; the same shape as `MemplaneCommand` of `@memplane/cli`. */
export interface McpCommand {
  /** `mcp`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** A one-line usage; `run(['--help'])` prints the full one. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage or configuration error) once the server stops. */
  run(argv: string[], output: McpCommandOutput, context?: { commandName: string }): Promise<number>;
}

interface ServeFlags {
  transport: 'stdio' | 'http';
  dataDir: string;
  config?: string;
  postgres?: string;
  postgresSchema?: string;
  company?: string;
  agent?: string;
  project?: string;
  issue?: string;
  run?: string;
  host: string;
  port: number;
  allowedHost?: string[];
  allowedOrigin?: string[];
  tokenFile?: string;
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new InvalidArgumentError('must be a port number (0 to 65535).');
  return parsed;
}

/**
 * Resolves when the process is asked to stop, or on stdio when the client hangs up: stdin ends,
 * or stdout can no longer be written (EPIPE), which would otherwise crash the process.
 */
function stopSignal(stdio: boolean): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stdin.off('end', stop);
      resolveStop();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (stdio) {
      process.stdin.once('end', stop);
      // Kept for the life of the process: a write that fails after the stop must not throw either.
      process.stdout.on('error', stop);
    }
  });
}

const dataDirOption = () => new Option('--data-dir <folder>', 'the data folder').env('MEMPLANE_DATA_DIR').default('.memplane');
const tokenFileOption = () =>
  new Option('--token-file <file>', 'http: an old token file to import once (mcp-tokens.json and server-tokens.json in the data folder are imported anyway)').env('MEMPLANE_MCP_TOKEN_FILE');

/** Serves on the transport the flags name, with the host config they name, until a signal (or, on stdio, the client hanging up). */
async function serveWithFlags(flags: ServeFlags, output: McpCommandOutput): Promise<void> {
  const config = flags.config === undefined ? undefined : await readHostConfig(resolve(flags.config));
  const common = {
    dataDirectory: resolve(flags.dataDir),
    ...(config === undefined ? {} : { config }),
    ...(flags.postgres === undefined ? {} : { postgresUrl: flags.postgres }),
    ...(flags.postgresSchema === undefined ? {} : { postgresSchema: flags.postgresSchema }),
    log: (line: string) => output.stderr(`${line}\n`),
  };
  if (flags.transport === 'stdio') {
    const scope = resolveBoundScope({ companyId: flags.company, agentId: flags.agent, projectId: flags.project, issueId: flags.issue, runId: flags.run }, process.env);
    return serveMcp({ ...common, transport: 'stdio', scope, stopped: stopSignal(true) });
  }
  return serveMcp({
    ...common,
    transport: 'http',
    host: flags.host,
    port: flags.port,
    stopped: stopSignal(false),
    ...(flags.allowedHost === undefined ? {} : { allowedHosts: flags.allowedHost }),
    ...(flags.allowedOrigin === undefined ? {} : { allowedOrigins: flags.allowedOrigin }),
    ...(flags.tokenFile === undefined ? {} : { tokenFile: resolve(flags.tokenFile) }),
  });
}

function buildProgram(commandName: string, output: McpCommandOutput, ran: (work: Promise<number>) => void): Command {
  const program = new Command(commandName)
    .description('Serves memplane memory to MCP clients: stdio for one agent, or Streamable HTTP with bearer tokens.')
    .version(VERSION, '-v, --version', 'print the version of @memplane/mcp')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    .showHelpAfterError(`Run \`${commandName} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.stdout(text), writeErr: (text) => output.stderr(text), outputError: (text, write) => write(`${commandName}: ${text}`) })
    .addOption(new Option('--transport <kind>', 'stdio or http').choices(['stdio', 'http']).env('MEMPLANE_MCP_TRANSPORT').default('stdio'))
    .addOption(dataDirOption())
    .addOption(new Option('--config <file>', 'the host config (JSON): provider packages, secret allow-lists, destinations, bindings').env('MEMPLANE_CONFIG'))
    .addOption(new Option('--postgres <url>', 'keep the service in Postgres (needs pg installed)').env('MEMPLANE_POSTGRES_URL'))
    .addOption(new Option('--postgres-schema <name>', 'the Postgres schema of the tables (default memplane)').env('MEMPLANE_POSTGRES_SCHEMA'));
  for (const field of boundScopeFields) {
    const { flag, variables } = scopeFieldSources[field];
    program.addOption(new Option(`${flag} <id>`, `stdio: the bound ${field.replace(/Id$/, '')} (or ${variables.join(', ')})`));
  }
  program
    .addOption(new Option('--host <address>', 'http: the address to bind').env('MEMPLANE_MCP_HOST').default('127.0.0.1'))
    .addOption(new Option('--port <number>', 'http: the port').env('MEMPLANE_MCP_PORT').argParser(port).default(8765))
    .addOption(new Option('--allowed-host <names...>', 'http: Host names accepted (required off loopback)'))
    .addOption(new Option('--allowed-origin <origins...>', 'http: browser origins accepted besides loopback ones'))
    .addOption(tokenFileOption())
    .addHelpText('after', `\nTokens of the http transport: \`${commandName} token issue|list|revoke\` (the same as \`memplane token\`, one store for memplane-mcp and memplane serve).`)
    .action((flags: ServeFlags) => {
      ran(
        (async () => {
          await serveWithFlags(flags, output);
          return 0;
        })(),
      );
    });
  return program;
}

function exitCodeOf(error: unknown): number {
  return MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error) ? 2 : 1;
}

/** `memplane mcp` (and the `memplane-mcp` bin): serve, or manage the tokens (`token`, the host's command). */
export const mcpCommand: McpCommand = {
  name: 'mcp',
  summary: 'Serve memory to MCP clients over stdio or Streamable HTTP (from @memplane/mcp).',
  usage: 'memplane mcp [--transport stdio|http] [--data-dir <folder>] [--company <id> --agent <id>] | memplane mcp token <issue|list|revoke>',
  async run(argv, output, context) {
    const commandName = context?.commandName ?? 'memplane mcp';
    // The tokens are the host's, one store for memplane-mcp and memplane serve: `memplane mcp
    // token …` is `memplane token …` under the name it was called by.
    if (argv[0] === 'token') return createTokenCommand().run(argv.slice(1), output, { commandName: `${commandName} token` });
    let work: Promise<number> = Promise.resolve(0);
    try {
      buildProgram(commandName, output, (started) => (work = started)).parse(argv, { from: 'user' });
      return await work;
    } catch (error) {
      if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
      const message = MemoryError.isInstance(error) || error instanceof Error ? error.message : String(error);
      output.stderr(`${commandName}: ${message}\n`);
      return exitCodeOf(error);
    }
  },
};
