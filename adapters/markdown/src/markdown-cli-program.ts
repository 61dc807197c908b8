import { MemoryError, type MemoryScope } from '@memplane/core';
import { Command, InvalidArgumentError, Option } from 'commander';
import { VERSION } from './version';

/** The subcommands of `memplane markdown`. */
export type MarkdownSubcommand = 'reindex' | 'stats' | 'query' | 'list' | 'get' | 'import';

/** The options of a subcommand, as commander parsed them. */
export interface MarkdownCliOptions {
  root: string;
  company?: string;
  agent?: string;
  project?: string;
  issue?: string;
  run?: string;
  subject?: string;
  session?: string;
  namespace?: string;
  topK?: number;
  limit?: number;
  cursor?: string;
  full?: boolean;
  json?: boolean;
}

/** A mistake the command line parser cannot see (a missing root, a missing file): exit code 2. */
export class MarkdownUsageError extends MemoryError {
  constructor(message: string) {
    super('MEMORY_VALIDATION', { message });
    this.name = 'MarkdownUsageError';
  }
}

/** The scope of `--company` and the scope options. */
export function scopeOf(options: MarkdownCliOptions): MemoryScope {
  if (options.company === undefined) throw new MarkdownUsageError('--company is required.');
  const fields: Array<[keyof MemoryScope, string | undefined]> = [
    ['agentId', options.agent], ['projectId', options.project], ['issueId', options.issue], ['runId', options.run],
    ['subjectId', options.subject], ['sessionKey', options.session], ['namespace', options.namespace],
  ];
  return { companyId: options.company, ...Object.fromEntries(fields.filter(([, value]) => value !== undefined)) };
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('must be a positive integer.');
  return parsed;
}

const footer = `
Only import creates a root; every other subcommand refuses a root that does not exist (exit 2).
Progress bars go to stderr only when it is a terminal.
Exit codes: 0 done, 1 the work failed (such as get of an unknown record), 2 a usage or configuration error.`;

/** What runs a parsed subcommand: its name, options and positional arguments; resolves to the exit code. */
export type RunMarkdownSubcommand = (subcommand: MarkdownSubcommand, options: MarkdownCliOptions, positionals: string[]) => Promise<number>;

/** The `memplane markdown` program: commander parses, validates and prints help and version. */
export function buildMarkdownProgram(
  output: { stdout(text: string): void; stderr(text: string): void },
  run: RunMarkdownSubcommand,
): { program: Command; exitCode: () => number } {
  let exitCode = 0;
  const program = new Command('memplane markdown')
    .description('Maintains, inspects and queries a local markdown memory root.')
    .version(VERSION, '-v, --version', 'print the version of @memplane/markdown')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    .addHelpText('after', footer)
    .showHelpAfterError('Run `memplane markdown --help` for the usage.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.stdout(text),
      writeErr: (text) => output.stderr(text),
      outputError: (text, write) => write(`memplane markdown: ${text}`),
    });
  const subcommand = (name: MarkdownSubcommand, description: string, scoped: boolean) => {
    const command = program
      .command(name)
      .description(description)
      .addOption(new Option('--root <dir>', 'the markdown memory root').makeOptionMandatory());
    if (scoped) {
      command
        .requiredOption('--company <id>', 'the company (the tenant)')
        .option('--agent <id>', 'the agent')
        .option('--project <id>', 'the project')
        .option('--issue <id>', 'the issue')
        .option('--run <id>', 'the run')
        .option('--subject <id>', 'the subject')
        .option('--session <key>', 'the session')
        .option('--namespace <name>', 'the namespace');
    }
    return command;
  };
  const action = (name: MarkdownSubcommand) => async (...args: unknown[]) => {
    // commander passes the positional arguments, then the options, then the command.
    const options = args.at(-2) as MarkdownCliOptions;
    const positionals = args.slice(0, -2).flatMap((value) => (Array.isArray(value) ? (value as string[]) : value === undefined ? [] : [value as string]));
    exitCode = await run(name, options, positionals);
  };
  subcommand('reindex', 'Re-reads the markdown files that changed and drops the records of removed files; reports what opening the root reconciled too, with every parse problem (file:line: problem, on stderr).', false)
    .option('--full', 'drop the index and rebuild it from every markdown file')
    .option('--json', 'print the report as JSON')
    .action(action('reindex'));
  subcommand('stats', 'Counts the records, captured resources and markdown files of the root.', false)
    .option('--json', 'print the counts as JSON')
    .action(action('stats'));
  subcommand('query', 'Searches the records of the scope and prints score, record id and text per line.', true)
    .argument('<text...>', 'the query text')
    .option('--top-k <n>', 'how many records to return', positiveInteger)
    .option('--json', 'print the snippets as JSON')
    .action(action('query'));
  subcommand('list', 'Lists the records of the scope, a page at a time; the last line gives the cursor of the next page.', true)
    .option('--limit <n>', 'records per page', positiveInteger)
    .option('--cursor <cursor>', 'the cursor of the page to read')
    .option('--json', 'print the page as JSON')
    .action(action('list'));
  subcommand('get', 'Prints one record of the scope; exits 1 when the scope has no such record.', true)
    .argument('<record-id>', 'the record id, such as m_0mwr805bc000ad990559d390')
    .option('--json', 'print the record as JSON')
    .action(action('get'));
  subcommand('import', 'Writes one record per line of a JSON lines file ({"text", "summary"?, "metadata"?}); the only subcommand that creates a root.', true)
    .argument('<file>', 'the JSON lines file')
    .action(action('import'));
  return { program, exitCode: () => exitCode };
}
