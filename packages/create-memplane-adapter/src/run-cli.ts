import { basename, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { MemoryError, MemoryValidationError } from '@memplane/core';
import { defaultPackageName, providerIdSchema } from './provider-names';
import { scaffoldAdapter, type ScaffoldAdapterResult } from './scaffold-adapter';

/** The streams and terminal facts the command line works with. */
export interface CliEnvironment {
  /** Where answers to the prompt come from. */
  stdin: NodeJS.ReadableStream;
  /** Where results and the prompt go. */
  stdout: { write(text: string): unknown };
  /** Where errors and the usage go. */
  stderr: { write(text: string): unknown };
  /** Whether a person is at the terminal (stdin and stdout are TTYs), so asking is allowed. */
  interactive: boolean;
  /** The working directory: `--directory` is relative to it. */
  cwd: string;
}

/** The usage text of the command. */
export const usage = `Usage: create-memplane-adapter <name> [--directory <dir>] [--package-name <name>] [--no-interactive] [--force]

  <name>                 the provider id, kebab-case (such as acme-memory)
  --directory, -d <dir>  where to write the adapter (default: the package name)
  --package-name <name>  the npm package name (default: memplane-adapter-<name>)
  --no-interactive       never ask; fail when the name is missing
  --force, -f            write into a directory that is not empty
  --help, -h             show this help
`;

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      directory: { type: 'string', short: 'd' },
      'package-name': { type: 'string' },
      'no-interactive': { type: 'boolean' },
      force: { type: 'boolean', short: 'f' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function askForName(environment: CliEnvironment): Promise<string> {
  const readline = createInterface({ input: environment.stdin, output: environment.stdout as NodeJS.WritableStream });
  try {
    return (await readline.question('Provider id (kebab-case, such as acme-memory): ')).trim();
  } finally {
    readline.close();
  }
}

function nextSteps(result: ScaffoldAdapterResult, cwd: string): string {
  const shown = relative(cwd, result.directory) || '.';
  return `Created ${result.packageName} in ${result.directory} (${result.files.length} files).

Next steps:
  cd ${shown}
  npm install
  npm test          # unit tests and the memplane conformance suite, offline

Then replace src/${result.names.kebab}-client.ts with the provider's official SDK and adapt
the fake API in src/${result.names.kebab}-fake-server.ts; README.md says how.
`;
}

/**
 * Runs `create-memplane-adapter` and returns the exit code: 0 when the adapter was written,
 * 1 when scaffolding failed, 2 for a usage error (a missing or invalid name, an unknown option).
 */
export async function runCreateMemplaneAdapter(argv: string[], environment: CliEnvironment): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    environment.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    environment.stdout.write(usage);
    return 0;
  }
  if (positionals.length > 1) {
    environment.stderr.write(`Expected one name, got ${positionals.length}: ${positionals.join(' ')}\n\n${usage}`);
    return 2;
  }
  const interactive = environment.interactive && values['no-interactive'] !== true;
  const name = positionals[0] ?? (interactive ? await askForName(environment) : undefined);
  if (name === undefined || name === '') {
    environment.stderr.write(`Missing the provider id.\n\n${usage}`);
    return 2;
  }
  const checked = providerIdSchema.safeParse(name);
  if (!checked.success) {
    environment.stderr.write(`Invalid name "${name}": ${checked.error.issues[0]?.message ?? 'invalid'}\n\n${usage}`);
    return 2;
  }
  try {
    const packageName = values['package-name'] ?? defaultPackageName(name);
    const result = scaffoldAdapter({
      name,
      directory: resolve(environment.cwd, values.directory ?? basename(packageName)),
      packageName,
      force: values.force === true,
    });
    environment.stdout.write(nextSteps(result, environment.cwd));
    return 0;
  } catch (error) {
    if (!MemoryError.isInstance(error)) throw error;
    // A bad option is a usage error; anything else (a busy directory, a missing template) is a failure.
    if (MemoryValidationError.isInstance(error) && error.field !== 'directory') {
      environment.stderr.write(`${error.message}\n\n${usage}`);
      return 2;
    }
    environment.stderr.write(`${error.message}\n`);
    return 1;
  }
}
