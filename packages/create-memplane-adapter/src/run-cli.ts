import { basename, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { MemoryError, MemoryValidationError } from '@memplane/core';
import { Command, CommanderError } from 'commander';
import { defaultPackageName, providerIdSchema } from './provider-names';
import { scaffoldAdapter, type ScaffoldAdapterResult } from './scaffold-adapter';
import { VERSION } from './version';

/** The streams and terminal facts the command line works with. */
export interface CliEnvironment {
  /** Where answers to the prompt come from. */
  stdin: NodeJS.ReadableStream;
  /** Where results, the help and the prompt go. */
  stdout: { write(text: string): unknown };
  /** Where errors go. */
  stderr: { write(text: string): unknown };
  /** Whether a person is at the terminal (stdin and stdout are TTYs), so asking is allowed. */
  interactive: boolean;
  /** The working directory: `--directory` is relative to it. */
  cwd: string;
}

const commandName = 'create-memplane-adapter';

const moreHelp = `
Examples:
  npm create memplane-adapter acme-memory
  npx create-memplane-adapter acme-memory --package-name @acme/memplane-adapter
  npx create-memplane-adapter acme-local --minimal

Exit codes: 0 the adapter was written, 1 writing failed, 2 a usage or configuration error
(a missing or invalid name, an unknown option, a directory that is not empty without --force);
nothing is written on exit code 2.`;

interface Options {
  directory?: string;
  packageName?: string;
  interactive: boolean;
  force?: boolean;
  minimal?: boolean;
}

function buildProgram(environment: CliEnvironment, run: (name: string | undefined, options: Options) => Promise<number>) {
  let exitCode = 0;
  const program = new Command(commandName)
    .description('Scaffolds a memplane memory adapter for a hosted provider (or, with --minimal, a local one), from a template that passes the whole conformance suite.')
    .argument('[name]', 'the provider id, kebab-case (such as acme-memory); asked for at a terminal')
    .option('-d, --directory <dir>', 'where to write the adapter (default: the package name without its scope)')
    .option('--package-name <name>', 'the npm package name (default: memplane-adapter-<name>)')
    .option('--no-interactive', 'never ask; fail when the name is missing')
    .option('-f, --force', 'write into a directory that is not empty (files of the same name are overwritten)')
    .option('--minimal', 'a local adapter: one adapter file, its conformance test and the CI workflow (default: the full package for a hosted provider)')
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', moreHelp)
    .showHelpAfterError(`Run \`${commandName} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => environment.stdout.write(text),
      writeErr: (text) => environment.stderr.write(text),
      outputError: (text, write) => write(`${commandName}: ${text}`),
    })
    .action(async (name: string | undefined, options: Options) => {
      exitCode = await run(name, options);
    });
  return { program, exitCode: () => exitCode };
}

async function askForName(environment: CliEnvironment): Promise<string> {
  const readline = createInterface({ input: environment.stdin, output: environment.stdout as NodeJS.WritableStream });
  try {
    return (await readline.question('Provider id (kebab-case, such as acme-memory): ')).trim();
  } finally {
    readline.close();
  }
}

function nextSteps(result: ScaffoldAdapterResult, cwd: string, minimal: boolean): string {
  const shown = relative(cwd, result.directory) || '.';
  if (minimal) {
    return `Created ${result.packageName} in ${result.directory} (${result.files.length} files).

Next steps:
  cd ${shown}
  npm install
  npm test          # the memplane conformance suite, offline

Then replace the in-memory store of src/${result.names.kebab}-adapter.ts with your storage;
npm test runs the conformance suite over it and names any promise it breaks.
.github/workflows/conformance.yml runs the type check and the suite in CI.
`;
  }
  return `Created ${result.packageName} in ${result.directory} (${result.files.length} files).

Next steps:
  cd ${shown}
  npm install
  npm test          # unit tests and the memplane conformance suite, offline

Then replace src/${result.names.kebab}-client.ts with the provider's official SDK and adapt
the fake API in src/${result.names.kebab}-fake-server.ts; README.md says how.
.github/workflows/conformance.yml runs the suite in CI and uploads its JSON and JUnit reports.
`;
}

/**
 * Runs `create-memplane-adapter` and returns the exit code: 0 when the adapter was written,
 * 1 when writing it failed, 2 for a usage or configuration error (a missing or invalid name, an
 * unknown option, a directory that is not empty without `--force`), in which case nothing is written.
 */
export async function runCreateMemplaneAdapter(argv: string[], environment: CliEnvironment): Promise<number> {
  const usageError = (message: string) => {
    environment.stderr.write(`${commandName}: ${message}\nRun \`${commandName} --help\` for the usage.\n`);
    return 2;
  };
  const { program, exitCode } = buildProgram(environment, async (given, options) => {
    const interactive = environment.interactive && options.interactive;
    const name = given ?? (interactive ? await askForName(environment) : undefined);
    if (name === undefined || name === '') return usageError('missing the provider id.');
    const checked = providerIdSchema.safeParse(name);
    if (!checked.success) return usageError(`invalid name "${name}": ${checked.error.issues[0]?.message ?? 'invalid'}`);
    try {
      const packageName = options.packageName ?? defaultPackageName(name);
      const result = scaffoldAdapter({
        name,
        directory: resolve(environment.cwd, options.directory ?? basename(packageName)),
        packageName,
        force: options.force === true,
        minimal: options.minimal === true,
      });
      environment.stdout.write(nextSteps(result, environment.cwd, options.minimal === true));
      return 0;
    } catch (error) {
      // Refused before writing (a bad option, a busy directory, a missing template): usage or configuration.
      if (MemoryValidationError.isInstance(error)) return usageError(error.message);
      if (MemoryError.isInstance(error) && error.code === 'MEMORY_CONFIGURATION') return usageError(error.message);
      environment.stderr.write(`${commandName}: writing the adapter failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode();
}

/** The full usage of the command, as `--help` prints it. */
export function usage(): string {
  const out: string[] = [];
  const quiet: CliEnvironment = { stdin: process.stdin, stdout: { write: (text: string) => out.push(text) }, stderr: { write: () => undefined }, interactive: false, cwd: '.' };
  buildProgram(quiet, async () => 0).program.outputHelp();
  return out.join('');
}
