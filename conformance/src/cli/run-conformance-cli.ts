import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { MemoryError } from '@memplane/core';
import { Command, CommanderError, Option } from 'commander';
import { prefixSelects } from '../conformance-options';
import { formatJunitReport } from '../format-junit-report';
import { formatReport } from '../format-report';
import { loadConformanceModule } from '../load-conformance-module';
import { runConformance, type ConformanceReport } from '../run-conformance';
import { conformanceRuleIds } from '../rules/index';
import { VERSION } from '../version';
import { outputPathProblem } from './check-output-path';
import { colourAllowed, createProgressLine, paint, type CliStream } from './terminal-output';

/** Where the CLI writes, and how it was invoked. `process.stdout` and `process.stderr` fit. */
export interface ConformanceCliIo {
  /** Receives the report lines (and the help and version). Coloured only when it is a terminal. */
  stdout: CliStream;
  /** Receives errors, and progress when it is a terminal. */
  stderr: CliStream;
  /** The command as the user typed it, named in help and messages. Default `memplane-conformance`. */
  commandName?: string;
  /** The environment, for `NO_COLOR`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The exit codes of the CLI. */
export const conformanceCliExitCodes = {
  /** Every rule passed or was skipped with a reason (also `--help` and `--version`). */
  passed: 0,
  /** At least one rule failed. */
  failed: 1,
  /** The command line, the module, its export or a report path was wrong; no rule ran. */
  usage: 2,
} as const;

const moduleHelp = `
The module (.ts, .mts, .js, .mjs or .cjs) exports the adapter factory as its default export, as
the named export createAdapter, or under the name given to --export. The factory returns a
MemoryAdapter or a promise of one. The named exports createPeerAdapter, faults and
waitForConsistency are picked up when present; rules that need them fail until they are exported.

Exit codes: 0 no rule failed, 1 a rule failed, 2 a usage or configuration error (nothing ran).
Progress goes to stderr only when it is a terminal; NO_COLOR turns colour off.`;

interface CliOptions {
  export?: string;
  json?: string;
  junit?: string;
  only: string[];
}

function describeProblem(error: unknown): string {
  if (MemoryError.isInstance(error)) return `${error.name} (${error.code}): ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function buildProgram(name: string, io: ConformanceCliIo, run: (modulePath: string, options: CliOptions) => Promise<number>) {
  let exitCode: number = conformanceCliExitCodes.passed;
  const program = new Command(name)
    .description('Runs the memplane conformance suite against the adapter a module creates.')
    .argument('<module>', 'a .ts/.js module exporting the adapter factory (see below)')
    .option('--export <name>', 'the export that creates the adapter, instead of default or createAdapter')
    .option('--json <path>', 'also write the full report as JSON')
    .option('--junit <path>', 'also write the report as JUnit XML, for CI systems')
    .addOption(
      new Option('--only <prefix>', 'run only the rules whose id starts with prefix (repeatable)')
        .argParser((value: string, previous: string[]) => [...previous, value])
        .default([], 'every rule'),
    )
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', moduleHelp)
    .showHelpAfterError(`Run \`${name} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`${name}: ${text}`),
    })
    .action(async (modulePath: string, options: CliOptions) => {
      exitCode = await run(modulePath, options);
    });
  return { program, exitCode: () => exitCode };
}

async function writeReports(report: ConformanceReport, options: CliOptions): Promise<void> {
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  if (options.junit !== undefined) await writeFile(options.junit, formatJunitReport(report), 'utf8');
}

function colourLines(text: string, enabled: boolean): string {
  if (!enabled) return text;
  return text.replace(/^(PASS|FAIL|SKIP) {2}/gm, (_, status: string) =>
    `${paint(status, status === 'PASS' ? 'green' : status === 'FAIL' ? 'red' : 'yellow', true)}  `,
  );
}

/**
 * The `memplane-conformance` command as a function, so `memplane conformance <module>` can reuse
 * it. Checks the arguments, the report paths, the module and its export before any rule runs,
 * prints one line per rule and the closing count line, and resolves to the exit code.
 */
export async function runConformanceCli(argv: ReadonlyArray<string>, io: ConformanceCliIo): Promise<number> {
  const name = io.commandName ?? 'memplane-conformance';
  const fail = (message: string) => {
    io.stderr.write(`${name}: ${message}\n`);
    return conformanceCliExitCodes.usage;
  };
  const { program, exitCode } = buildProgram(name, io, async (modulePath, options) => {
    const unknownPrefix = options.only.find((prefix) => !conformanceRuleIds.some((id) => prefixSelects(prefix, id)));
    if (unknownPrefix !== undefined) return fail(`--only ${unknownPrefix}: names no conformance rule (use a rule id or a dotted prefix of one).`);
    for (const [option, path] of [['--json', options.json], ['--junit', options.junit]] as const) {
      const problem = path === undefined ? undefined : await outputPathProblem(option, path);
      if (problem !== undefined) return fail(problem);
    }
    if (options.json !== undefined && options.json === options.junit) return fail('--json and --junit name the same file.');
    const progress = createProgressLine(io.stderr);
    let report: ConformanceReport;
    try {
      const loaded = await loadConformanceModule(modulePath, options.export);
      report = await runConformance(
        { name: basename(modulePath), ...loaded, ...(options.only.length === 0 ? {} : { only: options.only }) },
        { onRuleStart: (rule, index, total) => progress.show(`[${index + 1}/${total}] ${rule.id}`) },
      );
    } catch (error) {
      // Rules never throw out of the run: what does is the module, its export or the options.
      progress.clear();
      return fail(describeProblem(error));
    }
    progress.clear();
    io.stdout.write(colourLines(formatReport(report), colourAllowed(io.stdout, io.env ?? process.env)));
    try {
      await writeReports(report, options);
    } catch (error) {
      return fail(`could not write the report: ${describeProblem(error)}`);
    }
    return report.failed > 0 ? conformanceCliExitCodes.failed : conformanceCliExitCodes.passed;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? conformanceCliExitCodes.passed : conformanceCliExitCodes.usage;
    }
    throw error;
  }
  return exitCode();
}

/** The full usage of `memplane-conformance`, as `--help` prints it. */
export function conformanceCliUsage(commandName = 'memplane-conformance'): string {
  const out: string[] = [];
  const io: ConformanceCliIo = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: () => undefined }, commandName };
  buildProgram(commandName, io, async () => 0).program.outputHelp();
  return out.join('');
}
