import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryError, MemoryValidationError } from '@memplane/core';
import { formatReport } from '../format-report';
import { loadConformanceModule } from '../load-conformance-module';
import { runConformance } from '../run-conformance';

/** Where the CLI writes. `process.stdout` and `process.stderr` fit. */
export interface ConformanceCliIo {
  /** Receives the report lines. */
  stdout: { write(text: string): unknown };
  /** Receives usage and load errors. */
  stderr: { write(text: string): unknown };
}

/** The exit codes of the CLI. */
export const conformanceCliExitCodes = {
  /** Every rule passed or was skipped with a reason. */
  passed: 0,
  /** At least one rule failed, or the module or its options were invalid. */
  failed: 1,
  /** The command line was wrong. */
  usage: 2,
} as const;

/** The usage text of `memplane-conformance`. */
export const conformanceCliUsage = `Usage: memplane-conformance <module> [--export name] [--json report.json] [--only prefix]...

Runs the memplane conformance suite against the adapter a module creates.

  <module>          a .ts/.js module exporting createAdapter() (default or named export);
                    optional named exports: createPeerAdapter, faults, waitForConsistency
  --export name     the export that creates the adapter, instead of default/createAdapter
  --json path       also write the full report as JSON to path
  --only prefix     run only rules whose id starts with prefix (repeatable)
  --help            show this text

Exit code: 0 when no rule failed, 1 when a rule failed, 2 on usage errors.
`;

function describeProblem(error: unknown): string {
  if (MemoryError.isInstance(error)) return `${error.name} (${error.code}): ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * The `memplane-conformance` command as a function, so `memplane conformance <module>` can reuse
 * it. Prints one line per rule and the closing count line, and returns the exit code.
 */
export async function runConformanceCli(argv: ReadonlyArray<string>, io: ConformanceCliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`${describeProblem(error)}\n\n${conformanceCliUsage}`);
    return conformanceCliExitCodes.usage;
  }
  if (parsed.values.help === true) {
    io.stdout.write(conformanceCliUsage);
    return conformanceCliExitCodes.passed;
  }
  const [modulePath, ...extra] = parsed.positionals;
  if (modulePath === undefined || extra.length > 0) {
    io.stderr.write(`${modulePath === undefined ? 'Missing <module>.' : `Unexpected arguments: ${extra.join(' ')}`}\n\n${conformanceCliUsage}`);
    return conformanceCliExitCodes.usage;
  }
  try {
    const loaded = await loadConformanceModule(modulePath, parsed.values.export);
    const report = await runConformance({
      name: basename(modulePath),
      ...loaded,
      ...(parsed.values.only === undefined ? {} : { only: parsed.values.only }),
    });
    io.stdout.write(formatReport(report));
    if (parsed.values.json !== undefined) {
      await writeFile(parsed.values.json, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
    }
    return report.failed > 0 ? conformanceCliExitCodes.failed : conformanceCliExitCodes.passed;
  } catch (error) {
    io.stderr.write(`memplane-conformance: ${describeProblem(error)}\n`);
    // A bad --only prefix is a command-line mistake; anything else is the module's.
    const badOnly = MemoryValidationError.isInstance(error) && error.field.startsWith('only');
    return badOnly ? conformanceCliExitCodes.usage : conformanceCliExitCodes.failed;
  }
}

function parse(argv: ReadonlyArray<string>) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      export: { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
