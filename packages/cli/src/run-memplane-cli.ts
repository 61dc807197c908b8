import { conformanceCommand } from './commands/conformance-command';
import { demoCommand } from './commands/demo-command';
import { markdownCommand } from './commands/markdown-command';
import type { CommandOutput, MemplaneCommand } from './memplane-command';
import { VERSION } from './version';

/** The subcommands `memplane` knows, in the order `--help` lists them. */
export const memplaneCommands: MemplaneCommand[] = [conformanceCommand, markdownCommand, demoCommand];

function helpText(commands: MemplaneCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: memplane <command> [arguments]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `memplane <command> --help` for the arguments of a command.',
    '',
  ].join('\n');
}

/**
 * Runs the `memplane` command line and resolves to the exit code: 0 on success,
 * 1 when the command's work failed, 2 on a usage error.
 */
export async function runMemplaneCli(
  argv: string[],
  output: CommandOutput,
  commands: MemplaneCommand[] = memplaneCommands,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    output.stdout(helpText(commands));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    output.stdout(`${VERSION}\n`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    output.stderr(`Unknown command: ${name}\n\n${helpText(commands)}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    output.stdout(`Usage: ${command.usage}\n`);
    return 0;
  }
  return command.run(rest, output);
}
