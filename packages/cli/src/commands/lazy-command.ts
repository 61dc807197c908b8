import { MemoryConfigurationError } from '@memplane/core';
import type { CommandContext, CommandOutput, MemplaneCommand } from '../memplane-command';

/** A subcommand that lives in another package, loaded only when it runs. */
export interface LazyCommandDefinition {
  /** The subcommand name. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** Usage text for `memplane <name> --help`. */
  usage: string;
  /** The package that provides it, named in the message when it is not installed. */
  packageName: string;
  /** Imports the package and returns its command. */
  load(): Promise<{ run(argv: string[], output: CommandOutput, context?: CommandContext): Promise<number> }>;
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Wraps a command of an optional package: `memplane --help` lists it without loading the
 * package (and its native modules), and running it without the package installed says
 * which package to install instead of failing with a stack trace.
 */
export function lazyCommand(definition: LazyCommandDefinition): MemplaneCommand {
  return {
    name: definition.name,
    summary: definition.summary,
    usage: definition.usage,
    async run(argv: string[], output: CommandOutput, context?: CommandContext): Promise<number> {
      let command: Pick<MemplaneCommand, 'run'>;
      try {
        command = await definition.load();
      } catch (error) {
        if (!isModuleNotFound(error)) {
          throw new MemoryConfigurationError({ message: `Could not load ${definition.packageName}.`, cause: error });
        }
        const install = `npm install ${definition.packageName}`;
        if (argv.includes('--help') || argv.includes('-h')) {
          output.stdout(`Usage: ${definition.usage}\n\n${definition.summary}\nThe full usage comes with ${definition.packageName}: ${install}\n`);
          return 0;
        }
        output.stderr(`memplane ${definition.name} needs ${definition.packageName}: ${install}\n`);
        return 2;
      }
      return command.run(argv, output, context);
    },
  };
}
