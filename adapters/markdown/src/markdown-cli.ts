import { existsSync, statSync } from 'node:fs';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { createMarkdownAdapter, type MarkdownAdapter } from './markdown-adapter';
import { MarkdownUsageError, parseMarkdownArguments, scopeOf } from './markdown-cli-arguments';
import { MarkdownCliEvents } from './markdown-cli-events';
import { runMarkdownSubcommand } from './markdown-cli-subcommands';
import { isMarkdownSubcommand, markdownUsage, subcommandUsage, type MarkdownSubcommand } from './markdown-cli-usage';
import { createProgressBar } from './markdown-progress-bar';
import { VERSION } from './version';

/** Where a command writes; the same shape as `CommandOutput` of `@memplane/cli`. */
export interface MarkdownCommandOutput {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error (progress bars, problems, errors). */
  stderr(text: string): void;
  /** Whether standard error is a terminal. Progress bars are drawn only then. */
  stderrIsTTY?: boolean;
}

/** A `memplane markdown` command; the same shape as `MemplaneCommand` of `@memplane/cli`. */
export interface MarkdownCommand {
  /** `markdown`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** The full usage, as `memplane markdown --help` prints it. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage or configuration error). */
  run(argv: string[], output: MarkdownCommandOutput): Promise<number>;
}

const name = 'memplane markdown';

/** Refuses a root that is not an existing folder, except for `import`, which may start one. */
function checkRoot(subcommand: MarkdownSubcommand, root: string): void {
  if (!existsSync(root)) {
    if (subcommand === 'import') return;
    throw new MarkdownUsageError(`the root ${root} does not exist. Only \`${name} import\` creates a root; check the path.`);
  }
  if (!statSync(root).isDirectory()) throw new MarkdownUsageError(`the root ${root} is not a folder.`);
}

function exitCodeOf(error: unknown): number {
  const usage =
    error instanceof MarkdownUsageError || MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error);
  return usage ? 2 : 1;
}

async function runParsed(argv: string[], output: MarkdownCommandOutput): Promise<number> {
  const { values, positionals } = parseMarkdownArguments(argv);
  const [subcommand, ...rest] = positionals;
  if (values.version === true) {
    output.stdout(`${VERSION}\n`);
    return 0;
  }
  if (values.help === true) {
    output.stdout(`${isMarkdownSubcommand(subcommand) ? subcommandUsage(subcommand) : markdownUsage}\n`);
    return 0;
  }
  if (subcommand === undefined) throw new MarkdownUsageError('missing subcommand.');
  if (!isMarkdownSubcommand(subcommand)) throw new MarkdownUsageError(`unknown subcommand ${JSON.stringify(subcommand)}.`);
  if (values.root === undefined) throw new MarkdownUsageError('--root is required.');
  // Checked before the root is opened, so a mistake never creates or touches it.
  if (subcommand !== 'reindex' && subcommand !== 'stats') scopeOf(values);
  if (subcommand === 'import' && (rest[0] === undefined || !existsSync(rest[0]))) {
    throw new MarkdownUsageError(rest[0] === undefined ? 'import needs a JSON lines file.' : `import: the file ${rest[0]} does not exist.`);
  }
  checkRoot(subcommand, values.root);
  const terminal = output.stderrIsTTY === true;
  const progress = (label: string) => (terminal ? createProgressBar((chunk) => output.stderr(chunk), label) : { update() {}, finish() {} });
  const events = new MarkdownCliEvents();
  const bar = progress('reindex');
  let adapter: MarkdownAdapter | undefined;
  try {
    adapter = createMarkdownAdapter({
      root: values.root,
      onProgress: (report) => bar.update(report.done, report.total),
      onEvent: (event) => events.record(event),
    });
    bar.finish();
    if (events.rebuilt !== undefined && subcommand !== 'reindex') {
      output.stderr(`Index rebuilt (${events.rebuilt.reason}): ${events.rebuilt.records} records in ${Math.round(events.rebuilt.durationMs)} ms.\n`);
    }
    const code = await runMarkdownSubcommand(subcommand, { adapter, values, positionals: rest, events, stdout: output.stdout, progress }, output.stderr);
    for (const problem of events.problems) output.stderr(`${problem.file}:${problem.line}: ${problem.message}\n`);
    return code;
  } finally {
    bar.finish();
    adapter?.close();
  }
}

/** `memplane markdown ...`: maintain and inspect a markdown root from the command line. */
export const markdownCommand: MarkdownCommand = {
  name: 'markdown',
  summary: 'Reindex, inspect, query and import a local markdown memory root.',
  usage: markdownUsage,
  async run(argv, output) {
    try {
      return await runParsed(argv, output);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const hint = error instanceof MarkdownUsageError ? `\nRun \`${name} --help\` for the usage.` : '';
      output.stderr(`${name}: ${message}${hint}\n`);
      return exitCodeOf(error);
    }
  },
};
