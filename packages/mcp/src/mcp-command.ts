import { resolve } from 'node:path';
import { MemoryConfigurationError, MemoryError, MemoryValidationError } from '@memplane/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { boundScopeFields, resolveBoundScope, scopeFieldSources } from './mcp-bound-scope';
import { serveMcp } from './mcp-serve';
import { openMcpTokenFile, tokenFileName } from './mcp-token-file';
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

/** A token lives a century at most: a later expiry is a typo, and past year 275760 no Date exists. */
const maximumTokenDays = 36_500;

function days(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > maximumTokenDays) {
    throw new InvalidArgumentError(`must be a positive number of days, at most ${maximumTokenDays}.`);
  }
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
const tokenFileOption = () => new Option('--token-file <file>', `the token file (default <data-dir>/${tokenFileName})`).env('MEMPLANE_MCP_TOKEN_FILE');

function buildProgram(commandName: string, output: McpCommandOutput, ran: (work: Promise<number>) => void): Command {
  const program = new Command(commandName)
    .description('Serves memplane memory to MCP clients: stdio for one agent, or Streamable HTTP with bearer tokens.')
    .version(VERSION, '-v, --version', 'print the version of @memplane/mcp')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    // The token subcommands have their own --company and --agent; the server's flags come before a subcommand.
    .enablePositionalOptions()
    .showHelpAfterError(`Run \`${commandName} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.stdout(text), writeErr: (text) => output.stderr(text), outputError: (text, write) => write(`${commandName}: ${text}`) })
    .addOption(new Option('--transport <kind>', 'stdio or http').choices(['stdio', 'http']).env('MEMPLANE_MCP_TRANSPORT').default('stdio'))
    .addOption(dataDirOption())
    .addOption(new Option('--config <file>', 'a JSON file of bindings applied at start').env('MEMPLANE_CONFIG'))
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
    .action((flags: ServeFlags) => {
      const common = {
        dataDirectory: resolve(flags.dataDir),
        ...(flags.config === undefined ? {} : { configFile: resolve(flags.config) }),
        ...(flags.postgres === undefined ? {} : { postgresUrl: flags.postgres }),
        ...(flags.postgresSchema === undefined ? {} : { postgresSchema: flags.postgresSchema }),
        log: (line: string) => output.stderr(`${line}\n`),
      };
      if (flags.transport === 'stdio') {
        const scope = resolveBoundScope(
          { companyId: flags.company, agentId: flags.agent, projectId: flags.project, issueId: flags.issue, runId: flags.run },
          process.env,
        );
        ran(serveMcp({ ...common, transport: 'stdio', scope, stopped: stopSignal(true) }).then(() => 0));
        return;
      }
      ran(
        serveMcp({
          ...common,
          transport: 'http',
          host: flags.host,
          port: flags.port,
          stopped: stopSignal(false),
          ...(flags.allowedHost === undefined ? {} : { allowedHosts: flags.allowedHost }),
          ...(flags.allowedOrigin === undefined ? {} : { allowedOrigins: flags.allowedOrigin }),
          ...(flags.tokenFile === undefined ? {} : { tokenFile: resolve(flags.tokenFile) }),
        }).then(() => 0),
      );
    });

  const tokens = program.command('token').description('Issue, list and revoke the bearer tokens of the HTTP transport.');
  const tokenFileOf = (options: { dataDir: string; tokenFile?: string }) =>
    openMcpTokenFile(resolve(options.tokenFile ?? `${options.dataDir}/${tokenFileName}`));
  tokens
    .command('issue')
    .description('Issue a token acting as one agent of one company. The token is printed once and kept only as its SHA-256.')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--agent <id>', 'the agent')
    .option('--project <id>', 'the project it is bound to')
    .option('--label <text>', 'who or what holds it')
    .addOption(new Option('--expires-in-days <days>', 'when it stops working').argParser(days))
    .addOption(dataDirOption())
    .addOption(tokenFileOption())
    .action((options: { company: string; agent: string; project?: string; label?: string; expiresInDays?: number; dataDir: string; tokenFile?: string }) => {
      ran(
        tokenFileOf(options)
          .issue({
            companyId: options.company,
            agentId: options.agent,
            ...(options.project === undefined ? {} : { projectId: options.project }),
            ...(options.label === undefined ? {} : { label: options.label }),
            ...(options.expiresInDays === undefined ? {} : { expiresAt: new Date(Date.now() + options.expiresInDays * 86_400_000) }),
          })
          .then(({ token, record }) => {
            output.stderr(`Issued ${record.id} for agent ${record.agentId} of company ${record.companyId}. Store the token now; it is not kept.\n`);
            output.stdout(`${token}\n`);
            return 0;
          }),
      );
    });
  tokens
    .command('revoke <token-id>')
    .description('Revoke a token; a running server refuses it at its next request.')
    .addOption(dataDirOption())
    .addOption(tokenFileOption())
    .action((tokenId: string, options: { dataDir: string; tokenFile?: string }) => {
      ran(
        tokenFileOf(options)
          .revoke(tokenId)
          .then((found) => {
            if (!found) output.stderr(`No token ${tokenId}.\n`);
            else output.stdout(`Revoked ${tokenId}.\n`);
            return found ? 0 : 1;
          }),
      );
    });
  tokens
    .command('list')
    .description('List the issued tokens (never the tokens themselves).')
    .addOption(dataDirOption())
    .addOption(tokenFileOption())
    .action((options: { dataDir: string; tokenFile?: string }) => {
      ran(
        tokenFileOf(options)
          .list()
          .then((records) => {
            output.stdout('id\tcompany\tagent\tstate\tlabel\n');
            for (const record of records) {
              const state = record.revokedAt !== undefined ? 'revoked' : record.expiresAt !== undefined && Date.parse(record.expiresAt) <= Date.now() ? 'expired' : 'active';
              output.stdout(`${record.id}\t${record.companyId}\t${record.agentId}\t${state}\t${record.label ?? ''}\n`);
            }
            return 0;
          }),
      );
    });
  // commander does not pass --version or the help hint down to subcommands; each names its own path.
  const withSubcommands = (command: Command, path: string): void => {
    for (const sub of command.commands) {
      const subPath = `${path} ${sub.name()}`;
      sub.version(VERSION, '-v, --version', 'print the version of @memplane/mcp').showHelpAfterError(`Run \`${subPath} --help\` for the usage.`);
      withSubcommands(sub, subPath);
    }
  };
  withSubcommands(program, commandName);
  return program;
}

function exitCodeOf(error: unknown): number {
  return MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error) ? 2 : 1;
}

/** `memplane mcp` (and the `memplane-mcp` bin): serve, or manage the HTTP tokens. */
export const mcpCommand: McpCommand = {
  name: 'mcp',
  summary: 'Serve memory to MCP clients over stdio or Streamable HTTP (from @memplane/mcp).',
  usage: 'memplane mcp [--transport stdio|http] [--data-dir <folder>] [--company <id> --agent <id>] | memplane mcp token <issue|list|revoke>',
  async run(argv, output, context) {
    const commandName = context?.commandName ?? 'memplane mcp';
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
