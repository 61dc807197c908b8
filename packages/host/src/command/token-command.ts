import { MemoryConfigurationError, MemoryError, MemoryValidationError, parseInput } from '@memplane/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { openMemplaneHost, type MemplaneHost } from '../open-memplane-host';
import { tokenGrantSchema, type MemplaneTokenGrant } from '../tokens/token-grant';
import type { MemplaneTokenRecord } from '../tokens/token-row';
import { VERSION } from '../version';

/** Where the command writes; the shape of `CommandOutput` of `@memplane/cli`. */
export interface TokenCommandOutput {
  /** Standard output: tokens and listings. */
  stdout(text: string): void;
  /** Standard error: progress lines, warnings and errors. */
  stderr(text: string): void;
}

/** `memplane token`; the shape of `MemplaneCommand` of `@memplane/cli`, so the CLI, `memplane serve` and `memplane-mcp` mount the same command. */
export interface TokenCommand {
  /** `token`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** A one-line usage; `run(['--help'])` prints the full one. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage or configuration error). */
  run(argv: string[], output: TokenCommandOutput, context?: { commandName: string }): Promise<number>;
}

const integer = (minimum: number, maximum: number, what: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum || parsed > maximum) throw new InvalidArgumentError(`must be ${what} (${minimum} to ${maximum}).`);
  return parsed;
};

/** A token lives a century at most: a later expiry is a typo. */
const maximumTokenDays = 36_500;

function days(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > maximumTokenDays) throw new InvalidArgumentError(`must be a positive number of days, at most ${maximumTokenDays}.`);
  return parsed;
}

interface LocationFlags {
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
}

interface IssueFlags extends LocationFlags {
  operator?: string;
  actAsAgents?: boolean;
  admin?: boolean;
  agent?: string;
  company?: string[];
  user?: string;
  project?: string;
  label?: string;
  expiresInDays?: number;
  requestsPerMinute?: number;
}

const locationOptions = () => [
  new Option('--data-dir <folder>', 'the data folder (SQLite, markdown memory, cursor secret)').env('MEMPLANE_DATA_DIR').default('.memplane'),
  new Option('--database-url <url>', 'the Postgres database of the service, instead of SQLite in the data folder (needs pg)').env('MEMPLANE_DATABASE_URL'),
  new Option('--database-schema <name>', 'the Postgres schema of the tables (default memplane)').env('MEMPLANE_DATABASE_SCHEMA'),
];

/** The grant the issue flags describe; a usage error names what is missing or extra. */
function grantOf(flags: IssueFlags): MemplaneTokenGrant {
  const roles = [flags.operator !== undefined, flags.admin === true, flags.agent !== undefined].filter(Boolean).length;
  const usage = (message: string) => new MemoryValidationError({ target: 'token grant', issues: [{ path: 'role', message }] });
  if (roles !== 1) throw usage('give exactly one of --operator <id>, --admin or --agent <id>');
  const companies = flags.company ?? [];
  const rate = flags.requestsPerMinute === undefined ? {} : { requestsPerMinute: flags.requestsPerMinute };
  if (flags.project !== undefined && flags.agent === undefined) throw usage('--project is for an --agent token');
  if (flags.user !== undefined && flags.admin !== true) throw usage('--user is for an --admin token');
  if (flags.operator !== undefined) {
    const relay = flags.actAsAgents === true ? { actAsAgents: true as const } : {};
    return { role: 'operator', operatorId: flags.operator, ...(companies.length === 0 ? {} : { companyIds: companies }), ...relay, ...rate };
  }
  if (flags.actAsAgents === true) throw usage('--act-as-agents is for an --operator token');
  const [companyId, ...more] = companies;
  if (companyId === undefined || more.length > 0) throw usage('a company admin or agent token needs exactly one --company <id>');
  if (flags.admin === true) return { role: 'admin', companyId, ...(flags.user === undefined ? {} : { userId: flags.user }), ...rate };
  return { role: 'agent', companyId, agentId: flags.agent ?? '', ...(flags.project === undefined ? {} : { projectId: flags.project }), ...rate };
}

function describeGrant(grant: MemplaneTokenGrant): string {
  if (grant.role === 'operator') {
    return `operator ${grant.operatorId} of ${grant.companyIds === undefined ? 'every company' : grant.companyIds.join(', ')}${grant.actAsAgents === true ? ', acting as their agents' : ''}`;
  }
  if (grant.role === 'admin') return `admin of company ${grant.companyId}`;
  return `agent ${grant.agentId} of company ${grant.companyId}${grant.projectId === undefined ? '' : `, project ${grant.projectId}`}`;
}

function stateOf(record: MemplaneTokenRecord, now: number): string {
  if (record.revokedAt !== undefined) return 'revoked';
  return record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now ? 'expired' : 'active';
}

/** One tab-separated line of `token list`: never the token, nor its hash. */
function listLine(record: MemplaneTokenRecord, now: number): string {
  const companies = record.role === 'operator' ? (record.companyIds?.join(',') ?? '*') : record.companyId;
  const subject = record.role === 'operator' ? record.operatorId : record.role === 'agent' ? record.agentId : (record.userId ?? '');
  const project = record.role === 'agent' ? (record.projectId ?? '') : '';
  return `${record.id}\t${record.role}\t${companies}\t${subject}\t${project}\t${stateOf(record, now)}\t${record.expiresAt ?? ''}\t${record.label ?? ''}\n`;
}

function buildProgram(commandName: string, output: TokenCommandOutput, ran: (work: Promise<number>) => void): Command {
  /** Opens the host of the flags, runs `work` on it, closes it. */
  const withHost = (flags: LocationFlags, work: (host: MemplaneHost) => Promise<number>) =>
    ran(
      (async () => {
        const host = await openMemplaneHost({
          dataDirectory: flags.dataDir,
          ...(flags.databaseUrl === undefined ? {} : { databaseUrl: flags.databaseUrl }),
          ...(flags.databaseSchema === undefined ? {} : { databaseSchema: flags.databaseSchema }),
          log: (warning) => output.stderr(`${commandName}: ${warning.message}\n`),
        });
        try {
          for (const imported of host.tokenImports) {
            output.stderr(`${commandName}: imported ${imported.imported} token(s) from ${imported.path}${imported.renamedTo === undefined ? '' : `, renamed to ${imported.renamedTo}`}\n`);
          }
          return await work(host);
        } finally {
          await host.close();
        }
      })(),
    );

  const program = new Command(commandName)
    .description('Issue, list and revoke bearer tokens, kept hashed in the service\'s database: one store for memplane serve, memplane-mcp and every process on the same database.')
    .version(VERSION, '-v, --version', 'print the version of @memplane/host')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    .showHelpAfterError(`Run \`${commandName} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.stdout(text), writeErr: (text) => output.stderr(text), outputError: (text, write) => write(`${commandName}: ${text}`) });

  const issue = program
    .command('issue')
    .description('Issue a token. It is printed once on standard output and kept only as its SHA-256.')
    .option('--operator <id>', 'an operator token: every company, or the --company ones')
    .option('--act-as-agents', 'operator: calls may name an agent and run as it (for a relay such as the Paperclip plugin)')
    .option('--admin', 'a company admin token for one --company')
    .option('--agent <id>', 'an agent token for one --company')
    .option('--company <ids...>', 'the company (admin, agent) or companies (operator)')
    .option('--user <id>', 'admin: who holds it, for the audit trail (default: the token id)')
    .option('--project <id>', 'agent: the project it is bound to')
    .option('--label <text>', 'who or what holds it')
    .addOption(new Option('--expires-in-days <days>', 'when it stops working').argParser(days))
    .addOption(new Option('--requests-per-minute <n>', 'this token\'s rate limit').argParser(integer(1, 1_000_000, 'a number of requests')));
  const revoke = program.command('revoke <token-id>').description('Revoke a token; every process on the database refuses it at its next request.');
  const list = program.command('list').description('List the issued tokens (never the tokens themselves): id, role, companies, subject, project, state, expiry, label.');
  for (const command of [issue, revoke, list]) {
    for (const option of locationOptions()) command.addOption(option);
    command.version(VERSION, '-v, --version', 'print the version of @memplane/host').showHelpAfterError(`Run \`${commandName} ${command.name()} --help\` for the usage.`);
  }

  issue.action((flags: IssueFlags) => {
    // The grant is checked before anything is opened: a usage error creates no data folder.
    const grant = parseInput(tokenGrantSchema, grantOf(flags), 'token grant') as MemplaneTokenGrant;
    withHost(flags, async (host) => {
      const { token, record } = await host.tokens.issue(grant, {
        ...(flags.label === undefined ? {} : { label: flags.label }),
        ...(flags.expiresInDays === undefined ? {} : { expiresAt: new Date(Date.now() + flags.expiresInDays * 86_400_000) }),
      });
      output.stderr(`Issued ${record.id} (${describeGrant(grant)}). Store the token now; it is not kept.\n`);
      output.stdout(`${token}\n`);
      return 0;
    });
  });
  revoke.action((tokenId: string, flags: LocationFlags) =>
    withHost(flags, async (host) => {
      const found = await host.tokens.revoke(tokenId);
      if (found) output.stdout(`Revoked ${tokenId}.\n`);
      else output.stderr(`No token ${tokenId}.\n`);
      return found ? 0 : 1;
    }),
  );
  list.action((flags: LocationFlags) =>
    withHost(flags, async (host) => {
      const now = Date.now();
      output.stdout('id\trole\tcompanies\tsubject\tproject\tstate\texpires\tlabel\n');
      for (const record of await host.tokens.list()) output.stdout(listLine(record, now));
      return 0;
    }),
  );
  return program;
}

function exitCodeOf(error: unknown): number {
  return MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error) ? 2 : 1;
}

/**
 * Builds `memplane token issue|list|revoke` over a data folder or `--database-url`. The CLI
 * mounts it as `memplane token`; `memplane serve token` and `memplane-mcp token` run the same
 * command (pass their name as `context.commandName`).
 */
export function createTokenCommand(): TokenCommand {
  return {
    name: 'token',
    summary: 'Issue, list and revoke the bearer tokens of memplane serve and memplane-mcp (from @memplane/host).',
    usage: 'memplane token issue (--operator <id> | --admin --company <id> | --agent <id> --company <id>) | memplane token list | memplane token revoke <token-id>',
    async run(argv, output, context) {
      const commandName = context?.commandName ?? 'memplane token';
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
}
