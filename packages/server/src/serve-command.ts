import { resolve } from 'node:path';
import { MemoryConfigurationError, MemoryError, MemoryValidationError } from '@memplane/core';
import { createTokenCommand, readHostConfig } from '@memplane/host';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { serveMemplane } from './open-memplane-server';
import { VERSION } from './version';

/** Where the command writes; the same shape as `CommandOutput` of `@memplane/cli`. */
export interface ServeCommandOutput {
  /** Standard output: tokens and listings. */
  stdout(text: string): void;
  /** Standard error: progress lines and errors. */
  stderr(text: string): void;
}

/** The `memplane serve` command; the same shape as `MemplaneCommand` of `@memplane/cli`. */
export interface ServeCommand {
  /** `serve`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** A one-line usage; `run(['--help'])` prints the full one. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage or configuration error), once the server stops when serving. */
  run(argv: string[], output: ServeCommandOutput, context?: { commandName: string }): Promise<number>;
}

/** Options of the serving command, for tests that stop it themselves. */
export interface ServeCommandHooks {
  /** Resolves when the server should stop. Default: SIGINT or SIGTERM. */
  stopped?: Promise<void>;
  /** Called once the server listens, with its URL. */
  listening?(url: string): void;
}

const integer = (minimum: number, maximum: number, what: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum || parsed > maximum) throw new InvalidArgumentError(`must be ${what} (${minimum} to ${maximum}).`);
  return parsed;
};

/** Whether a bind address is this machine only. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function stopSignal(): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

interface ServeFlags {
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
  config?: string;
  tokenFile?: string;
  host: string;
  port: number;
  maxBodyBytes?: number;
  rateLimit?: number;
  inspector: boolean;
}

const dataDirOption = () => new Option('--data-dir <folder>', 'the data folder (SQLite with the tokens, markdown memory)').env('MEMPLANE_DATA_DIR').default('.memplane');

function buildProgram(commandName: string, output: ServeCommandOutput, hooks: ServeCommandHooks, ran: (work: Promise<number>) => void): Command {
  const program = new Command(commandName)
    .description('Serves the memory service over HTTP with the inspector at /: runtime, control-plane and explorer endpoints behind bearer tokens.')
    .version(VERSION, '-v, --version', 'print the version of @memplane/server')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    .enablePositionalOptions()
    .showHelpAfterError(`Run \`${commandName} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.stdout(text), writeErr: (text) => output.stderr(text), outputError: (text, write) => write(`${commandName}: ${text}`) })
    .addOption(new Option('--host <address>', 'the address to bind').env('MEMPLANE_SERVER_HOST').default('127.0.0.1'))
    .addOption(new Option('--port <number>', 'the port (0 picks a free one)').env('MEMPLANE_SERVER_PORT').argParser(integer(0, 65535, 'a port number')).default(4680))
    .addOption(dataDirOption())
    .addOption(new Option('--database-url <url>', 'keep the service in Postgres (needs pg installed)').env('MEMPLANE_DATABASE_URL'))
    .addOption(new Option('--database-schema <name>', 'the Postgres schema of the tables (default memplane)').env('MEMPLANE_DATABASE_SCHEMA'))
    .addOption(new Option('--config <file>', 'the host config (JSON): provider packages, secret allow-lists, destinations, bindings').env('MEMPLANE_CONFIG'))
    .addOption(new Option('--token-file <file>', 'an old token file to import once (server-tokens.json and mcp-tokens.json in the data folder are imported anyway)').env('MEMPLANE_SERVER_TOKEN_FILE'))
    .addOption(new Option('--max-body-bytes <bytes>', 'the largest request body (default 1048576)').argParser(integer(1024, 64 * 1024 * 1024, 'a size in bytes')))
    .addOption(new Option('--rate-limit <per-minute>', 'requests per minute per token, unless its grant says (default 600)').argParser(integer(1, 1_000_000, 'a number of requests')))
    .option('--no-inspector', 'serve the API alone, without the inspector at /')
    .addHelpText('after', `\nTokens: \`${commandName} token issue|list|revoke\` (the same as \`memplane token\`, one store for memplane serve and memplane-mcp).`)
    .action((flags: ServeFlags) => {
      ran(
        (async () => {
          const config = flags.config === undefined ? undefined : await readHostConfig(resolve(flags.config));
          const served = await serveMemplane({
            dataDirectory: flags.dataDir,
            ...(config === undefined ? {} : { config }),
            host: flags.host,
            port: flags.port,
            ...(flags.databaseUrl === undefined ? {} : { databaseUrl: flags.databaseUrl }),
            ...(flags.databaseSchema === undefined ? {} : { databaseSchema: flags.databaseSchema }),
            ...(flags.tokenFile === undefined ? {} : { tokenFile: flags.tokenFile }),
            ...(flags.maxBodyBytes === undefined ? {} : { maxBodyBytes: flags.maxBodyBytes }),
            ...(flags.rateLimit === undefined ? {} : { rateLimit: { requestsPerMinute: flags.rateLimit } }),
            ...(flags.inspector ? {} : { inspectorDirectory: false as const }),
            log: (line) => output.stderr(`${commandName}: ${line}\n`),
          });
          try {
            output.stderr(`${commandName}: listening on ${served.http.url}${flags.inspector ? ' (inspector at /)' : ''}\n`);
            if (!isLoopback(flags.host)) {
              output.stderr(`${commandName}: ${flags.host} is reachable from other machines and this server speaks plain HTTP: put TLS in front of it\n`);
            }
            if ((await served.tokens.list()).every((record) => record.revokedAt !== undefined)) {
              output.stderr(`${commandName}: no live token yet; issue one with \`${commandName} token issue --operator <id>\`\n`);
            }
            hooks.listening?.(served.http.url);
            await (hooks.stopped ?? stopSignal());
          } finally {
            await served.close();
          }
          return 0;
        })(),
      );
    });

  return program;
}

function exitCodeOf(error: unknown): number {
  return MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error) ? 2 : 1;
}

/** Builds `memplane serve` with hooks for tests (when to stop, where it listens). */
export function createServeCommand(hooks: ServeCommandHooks = {}): ServeCommand {
  return {
    name: 'serve',
    summary: 'Serve the memory service over HTTP with the inspector, and manage its tokens (from @memplane/server).',
    usage: 'memplane serve [--port 4680] [--host 127.0.0.1] [--data-dir <folder>] [--database-url <postgres url>] | memplane serve token <issue|list|revoke>',
    async run(argv, output, context) {
      const commandName = context?.commandName ?? 'memplane serve';
      // The tokens are the host's, one store for memplane serve and memplane-mcp: `memplane serve
      // token …` is `memplane token …` under the name it was called by.
      if (argv[0] === 'token') return createTokenCommand().run(argv.slice(1), output, { commandName: `${commandName} token` });
      let work: Promise<number> = Promise.resolve(0);
      try {
        buildProgram(commandName, output, hooks, (started) => (work = started)).parse(argv, { from: 'user' });
        return await work;
      } catch (error) {
        if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
        const message = MemoryError.isInstance(error) || error instanceof Error ? error.message : String(error);
        output.stderr(`${commandName}: ${message}\n`);
        return exitCodeOf(error);
      }
    },
  };
}

/** `memplane serve`: serve the API and the inspector, or manage the tokens. */
export const serveCommand: ServeCommand = createServeCommand();
