import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { createMarkdownAdapter, type MarkdownAdapter } from './markdown-adapter';
import { CommanderError } from 'commander';
import { MarkdownCliEvents } from './markdown-cli-events';
import { buildMarkdownProgram, MarkdownUsageError, scopeOf, type MarkdownCliOptions, type MarkdownSubcommand } from './markdown-cli-program';
import { readImportFile, runMarkdownSubcommand } from './markdown-cli-subcommands';
import { createProgressBar } from './markdown-progress-bar';

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
  /** A one-line usage; `run(['--help'])` prints the full one. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage or configuration error). */
  run(argv: string[], output: MarkdownCommandOutput): Promise<number>;
}

const name = 'memplane markdown';

/**
 * Refuses a root that is not an existing folder, except for `import`, which may start one. Any other
 * command also refuses a folder holding neither `companies/` nor `.memplane/`: opening it would
 * create state (the index, the cursor secret) in a folder that a typo pointed at.
 */
function checkRoot(subcommand: MarkdownSubcommand, root: string): void {
  if (!existsSync(root)) {
    if (subcommand === 'import') return;
    throw new MarkdownUsageError(`the root ${root} does not exist. Only \`${name} import\` creates a root; check the path.`);
  }
  if (!statSync(root).isDirectory()) throw new MarkdownUsageError(`the root ${root} is not a folder.`);
  if (subcommand === 'import') return;
  if (!existsSync(join(root, 'companies')) && !existsSync(join(root, '.memplane'))) {
    throw new MarkdownUsageError(
      `the folder ${root} is not a markdown memory root (it has neither companies/ nor .memplane/). Only \`${name} import\` starts a root; check the path.`,
    );
  }
}

function exitCodeOf(error: unknown): number {
  const usage =
    error instanceof MarkdownUsageError || MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error);
  return usage ? 2 : 1;
}

async function runSubcommand(subcommand: MarkdownSubcommand, values: MarkdownCliOptions, rest: string[], output: MarkdownCommandOutput): Promise<number> {
  // Checked before the root is opened, so a mistake never creates or touches it.
  if (subcommand === 'import' && (rest[0] === undefined || !existsSync(rest[0]))) {
    throw new MarkdownUsageError(rest[0] === undefined ? 'import needs a JSON lines file.' : `import: the file ${rest[0]} does not exist.`);
  }
  const importedRecords = subcommand === 'import' ? readImportFile(rest[0] as string, scopeOf(values)) : undefined;
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
    const code = await runMarkdownSubcommand(subcommand, { adapter, values, positionals: rest, events, stdout: output.stdout, progress, importedRecords }, output.stderr);
    for (const problem of events.problems) output.stderr(`${problem.file}:${problem.line}: ${problem.message}\n`);
    return code;
  } finally {
    bar.finish();
    adapter?.close();
  }
}

async function runParsed(argv: string[], output: MarkdownCommandOutput): Promise<number> {
  if (argv.length === 0) throw new MarkdownUsageError('missing subcommand.');
  const { program, exitCode } = buildMarkdownProgram(output, (subcommand, values, rest) => runSubcommand(subcommand, values, rest, output));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // commander has already printed its message (or the help, or the version).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode();
}

/** `memplane markdown ...`: maintain and inspect a markdown root from the command line. */
export const markdownCommand: MarkdownCommand = {
  name: 'markdown',
  summary: 'Reindex, inspect, query and import a local markdown memory root.',
  usage: 'memplane markdown <reindex|stats|query|list|get|import> --root <dir> [options]',
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
