import { MemoryConfigurationError, MemoryError, MemoryValidationError } from '@memplane/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { serveMemplane, serverTokenFileOf } from './open-memplane-server';
import { serverTokenFileName, type ServerTokenGrant } from './server-token-file';
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

/** A token lives a century at most: a later expiry is a typo, and past year 275760 no Date exists. */
const maximumTokenDays = 36_500;

function days(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > maximumTokenDays) {
    throw new InvalidArgumentError(`must be a positive number of days, at most ${maximumTokenDays}.`);
  }
  return parsed;
}

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
  tokenFile?: string;
  host: string;
  port: number;
  maxBodyBytes?: number;
  rateLimit?: number;
  inspector: boolean;
}

interface IssueFlags {
  operator?: string;
  actAsAgents?: boolean;
  admin?: boolean;
  agent?: string;
  company?: string[];
  user?: string;
  label?: string;
  expiresInDays?: number;
  requestsPerMinute?: number;
  dataDir: string;
  tokenFile?: string;
}

const dataDirOption = () => new Option('--data-dir <folder>', 'the data folder (SQLite, markdown memory, tokens)').env('MEMPLANE_DATA_DIR').default('.memplane');
const tokenFileOption = () => new Option('--token-file <file>', `the token file (default <data-dir>/${serverTokenFileName})`).env('MEMPLANE_SERVER_TOKEN_FILE');

/** The grant the issue flags describe; a usage error names what is missing or extra. */
function grantOf(flags: IssueFlags): ServerTokenGrant {
  const roles = [flags.operator !== undefined, flags.admin === true, flags.agent !== undefined].filter(Boolean).length;
  const usage = (message: string) => new MemoryValidationError({ target: 'token grant', issues: [{ path: 'role', message }] });
  if (roles !== 1) throw usage('give exactly one of --operator <id>, --admin or --agent <id>');
  const companies = flags.company ?? [];
  const rate = flags.requestsPerMinute === undefined ? {} : { requestsPerMinute: flags.requestsPerMinute };
  if (flags.operator !== undefined) {
    const relay = flags.actAsAgents === true ? { actAsAgents: true as const } : {};
    return { role: 'operator', operatorId: flags.operator, ...(companies.length === 0 ? {} : { companyIds: companies }), ...relay, ...rate };
  }
  if (flags.actAsAgents === true) throw usage('--act-as-agents is for an --operator token');
  const [companyId, ...more] = companies;
  if (companyId === undefined || more.length > 0) throw usage('a company admin or agent token needs exactly one --company <id>');
  if (flags.admin === true) return { role: 'admin', companyId, ...(flags.user === undefined ? {} : { userId: flags.user }), ...rate };
  return { role: 'agent', companyId, agentId: flags.agent ?? '', ...rate };
}

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
    .addOption(tokenFileOption())
    .addOption(new Option('--max-body-bytes <bytes>', 'the largest request body (default 1048576)').argParser(integer(1024, 64 * 1024 * 1024, 'a size in bytes')))
    .addOption(new Option('--rate-limit <per-minute>', 'requests per minute per token, unless its grant says (default 600)').argParser(integer(1, 1_000_000, 'a number of requests')))
    .option('--no-inspector', 'serve the API alone, without the inspector at /')
    .action((flags: ServeFlags) => {
      ran(
        (async () => {
          const served = await serveMemplane({
            dataDirectory: flags.dataDir,
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

  const tokens = program.command('token').description('Issue, list and revoke the bearer tokens of the server (operator only: whoever can write the data folder).');
  tokens
    .command('issue')
    .description('Issue a token. It is printed once on standard output and kept only as its SHA-256.')
    .option('--operator <id>', 'an operator token: every company, or the --company ones')
    .option('--act-as-agents', 'operator: calls may name an agent in Memplane-Agent-Id and run as it (for a relay such as the Paperclip plugin)')
    .option('--admin', 'a company admin token for one --company')
    .option('--agent <id>', 'an agent token for one --company')
    .option('--company <ids...>', 'the company (admin, agent) or companies (operator)')
    .option('--user <id>', 'admin: who holds it, for the audit trail (default: the token id)')
    .option('--label <text>', 'who or what holds it')
    .addOption(new Option('--expires-in-days <days>', 'when it stops working').argParser(days))
    .addOption(new Option('--requests-per-minute <n>', 'this token\'s rate limit').argParser(integer(1, 1_000_000, 'a number of requests')))
    .addOption(dataDirOption())
    .addOption(tokenFileOption())
    .action((flags: IssueFlags) => {
      ran(
        (async () => {
          const grant = grantOf(flags);
          const { token, record } = await serverTokenFileOf(flags.dataDir, flags.tokenFile).issue(grant, {
            ...(flags.label === undefined ? {} : { label: flags.label }),
            ...(flags.expiresInDays === undefined ? {} : { expiresAt: new Date(Date.now() + flags.expiresInDays * 86_400_000) }),
          });
          output.stderr(`Issued ${record.id} (${describe(grant)}). Store the token now; it is not kept.\n`);
          output.stdout(`${token}\n`);
          return 0;
        })(),
      );
    });
  tokens
    .command('revoke <token-id>')
    .description('Revoke a token; a running server refuses it at its next request.')
    .addOption(dataDirOption())
    .addOption(tokenFileOption())
    .action((tokenId: string, flags: { dataDir: string; tokenFile?: string }) => {
      ran(
        serverTokenFileOf(flags.dataDir, flags.tokenFile)
          .revoke(tokenId)
          .then((found) => {
            if (found) output.stdout(`Revoked ${tokenId}.\n`);
            else output.stderr(`No token ${tokenId}.\n`);
            return found ? 0 : 1;
          }),
      );
    });
  tokens
    .command('list')
    .description('List the issued tokens (never the tokens themselves): id, role, companies, subject, state, label.')
    .addOption(dataDirOption())
    .addOption(tokenFileOption())
    .action((flags: { dataDir: string; tokenFile?: string }) => {
      ran(
        serverTokenFileOf(flags.dataDir, flags.tokenFile)
          .list()
          .then((records) => {
            output.stdout('id\trole\tcompanies\tsubject\tstate\tlabel\n');
            for (const record of records) {
              const state = record.revokedAt !== undefined ? 'revoked' : record.expiresAt !== undefined && Date.parse(record.expiresAt) <= Date.now() ? 'expired' : 'active';
              const companies = record.role === 'operator' ? (record.companyIds?.join(',') ?? '*') : record.companyId;
              const subject = record.role === 'operator' ? record.operatorId : record.role === 'agent' ? record.agentId : (record.userId ?? '');
              output.stdout(`${record.id}\t${record.role}\t${companies}\t${subject}\t${state}\t${record.label ?? ''}\n`);
            }
            return 0;
          }),
      );
    });
  const withSubcommands = (command: Command, path: string): void => {
    for (const sub of command.commands) {
      const subPath = `${path} ${sub.name()}`;
      sub.version(VERSION, '-v, --version', 'print the version of @memplane/server').showHelpAfterError(`Run \`${subPath} --help\` for the usage.`);
      withSubcommands(sub, subPath);
    }
  };
  withSubcommands(program, commandName);
  return program;
}

function describe(grant: ServerTokenGrant): string {
  if (grant.role === 'operator') {
    return `operator ${grant.operatorId} of ${grant.companyIds === undefined ? 'every company' : grant.companyIds.join(', ')}${grant.actAsAgents === true ? ', acting as their agents' : ''}`;
  }
  if (grant.role === 'admin') return `admin of company ${grant.companyId}`;
  return `agent ${grant.agentId} of company ${grant.companyId}`;
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
