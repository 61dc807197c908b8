import { Command, CommanderError } from 'commander';
import type { CommandContext, CommandOutput, MemplaneCommand } from '../memplane-command';
import { lazyCommand } from './lazy-command';

const demoUsage = 'memplane demo [--data-directory <folder>]';

/**
 * The demo's arguments, parsed here with commander: the service's command takes only
 * `--data-directory`, and must never start the demo (which writes a database) for `--help`,
 * `--version` or a mistyped option.
 */
async function runDemo(argv: string[], output: CommandOutput, context?: CommandContext): Promise<number> {
  const name = context?.commandName ?? 'memplane demo';
  const service = await import('@memplane/service');
  let exitCode = 0;
  const program = new Command(name)
    .description('Runs the scripted two-company memory service demo on embedded SQLite and markdown.')
    .option('--data-directory <folder>', 'keep the demo data in this folder (default: a temporary folder, removed afterwards)')
    .version(service.VERSION, '-v, --version', 'print the version of @memplane/service')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError(`Run \`${name} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.stdout(text),
      writeErr: (text) => output.stderr(text),
      outputError: (text, write) => write(`${name}: ${text}`),
    })
    .action(async (options: { dataDirectory?: string }) => {
      const args = options.dataDirectory === undefined ? [] : ['--data-directory', options.dataDirectory];
      exitCode = await service.memoryServiceDemoCommand.run(args, output);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
}

/** `memplane demo`: the scripted two-company memory service demo, from `@memplane/service`. */
export const demoCommand: MemplaneCommand = lazyCommand({
  name: 'demo',
  summary: 'Run the scripted two-company memory service demo on embedded SQLite and markdown (from @memplane/service).',
  usage: demoUsage,
  packageName: '@memplane/service',
  load: async () => {
    // Loading fails here, not inside runDemo, so a missing package is reported as such.
    await import('@memplane/service');
    return { run: runDemo };
  },
});
