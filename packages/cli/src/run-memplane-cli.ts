import { Command, CommanderError } from 'commander';
import { agentCoreCommand } from './commands/agentcore-command';
import { conformanceCommand } from './commands/conformance-command';
import { markdownCommand } from './commands/markdown-command';
import { mcpCommand } from './commands/mcp-command';
import { serveCommand } from './commands/serve-command';
import { tokenCommand } from './commands/token-command';
import type { CommandOutput, MemplaneCommand } from './memplane-command';
import { VERSION } from './version';

/** The subcommands `memplane` knows, in the order `--help` lists them. */
export const memplaneCommands: MemplaneCommand[] = [conformanceCommand, markdownCommand, agentCoreCommand, mcpCommand, serveCommand, tokenCommand];

const exitCodesHelp = `
Run \`memplane <command> --help\` for the full usage of a command.
Exit codes: 0 success, 1 the command's work failed (such as a failing rule), 2 a usage or configuration error.`;

/**
 * Runs the `memplane` command line and resolves to the exit code: 0 on success,
 * 1 when the command's work failed, 2 on a usage or configuration error.
 * `memplane <command> ...` hands every argument after the command's name, `--help` included,
 * to the command, which prints its own full usage.
 */
export async function runMemplaneCli(
  argv: string[],
  output: CommandOutput,
  commands: MemplaneCommand[] = memplaneCommands,
): Promise<number> {
  let exitCode = 0;
  const program = new Command('memplane')
    .description('The memplane command line.')
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    // `memplane help <command>` is the command's own --help, added below; commander's would print a stub.
    .helpCommand(false)
    .addHelpText('after', exitCodesHelp)
    // memplane's own options only before the command: `memplane conformance --version` is the command's.
    .enablePositionalOptions()
    .showHelpAfterError('Run `memplane --help` for the commands.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.stdout(text),
      writeErr: (text) => output.stderr(text),
      outputError: (text, write) => write(`memplane: ${text}`),
    });
  for (const command of commands) {
    program
      .command(command.name)
      .description(command.summary)
      // The command parses its own arguments and prints its own full usage.
      .helpOption(false)
      .passThroughOptions()
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async () => {
        const rest = argv.slice(argv.indexOf(command.name) + 1);
        exitCode = await command.run(rest, output, { commandName: `memplane ${command.name}` });
      });
  }
  program
    .command('help')
    .description('show the full usage of a command, or of memplane')
    .argument('[command]', 'the command')
    .action(async (name: string | undefined) => {
      const command = commands.find((candidate) => candidate.name === name);
      if (name === undefined) {
        program.outputHelp();
      } else if (command === undefined) {
        program.error(`unknown command '${name}'`, { exitCode: 2, code: 'commander.unknownCommand' });
      } else {
        exitCode = await command.run(['--help'], output, { commandName: `memplane ${command.name}` });
      }
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // --help, --version and `help` end with 0; no command, an unknown one or a bad option with 2.
    return error.exitCode === 0 ? 0 : 2;
  }
  return exitCode;
}
