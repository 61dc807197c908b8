import { MemoryConfigurationError, MemoryError, MemoryValidationError } from '@memplane/core';
import { Command, CommanderError } from 'commander';
import { setupAgentCoreMemory } from './agentcore-memory-setup';
import { VERSION } from './agentcore-version';

/** Where a command writes; the same shape as `CommandOutput` of `@memplane/cli`. */
export interface AgentCoreCommandOutput {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
}

/** A `memplane agentcore` command; the same shape as `MemplaneCommand` of `@memplane/cli`. */
export interface AgentCoreCommand {
  /** `agentcore`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** A one-line usage; `run(['--help'])` prints the full one. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage or configuration error). */
  run(argv: string[], output: AgentCoreCommandOutput): Promise<number>;
}

const name = 'memplane agentcore';

const footer = `
Credentials come from the AWS SDK's default chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, a web identity).
Exit codes: 0 done, 1 the work failed (AgentCore refused or could not be reached), 2 a usage or configuration error.`;

interface SetupOptions {
  memoryId: string;
  region?: string;
  endpoint?: string;
  dryRun?: boolean;
  json?: boolean;
}

async function runSetup(options: SetupOptions, output: AgentCoreCommandOutput): Promise<number> {
  const result = await setupAgentCoreMemory({
    memoryId: options.memoryId,
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    dryRun: options.dryRun === true,
  });
  if (options.json === true) {
    output.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const verb = result.dryRun ? 'would declare' : 'declared';
  output.stdout(
    result.added.length === 0
      ? `Memory ${result.memoryId} already declares every key the adapter filters on (${result.alreadyDeclared.length}).\n`
      : `Memory ${result.memoryId}: ${verb} ${result.added.length} indexed keys: ${result.added.join(', ')}. ${result.indexedKeys.length} of 10 in use.\n`,
  );
  return 0;
}

function buildProgram(output: AgentCoreCommandOutput): { program: Command; exitCode: () => number } {
  let exitCode = 0;
  const program = new Command(name)
    .description('Prepares an AWS Bedrock AgentCore memory for @memplane/agentcore.')
    .version(VERSION, '-v, --version', 'print the version of @memplane/agentcore')
    .helpOption('-h, --help', 'show this help')
    .helpCommand(false)
    .addHelpText('after', footer)
    .showHelpAfterError(`Run \`${name} --help\` for the usage.`)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.stdout(text),
      writeErr: (text) => output.stderr(text),
      outputError: (text, write) => write(`${name}: ${text}`),
    });
  program
    .command('setup')
    .description(
      'Declares the metadata keys the adapter filters on as STRING indexed keys of the memory (GetMemory, then UpdateMemory addIndexedKeys). Run it once per memory, before the adapter writes; indexed keys cannot be removed and a memory holds at most 10.',
    )
    .requiredOption('--memory-id <id>', 'the memory id (name-0123456789) or its ARN')
    .option('--region <region>', 'the AWS region (default AWS_REGION, then AWS_DEFAULT_REGION)')
    .option('--endpoint <url>', 'a control-plane endpoint override (a VPC endpoint or a proxy)')
    .option('--dry-run', 'show what would be declared, change nothing')
    .option('--json', 'print the result as JSON')
    .action(async (options: SetupOptions) => {
      exitCode = await runSetup(options, output);
    });
  return { program, exitCode: () => exitCode };
}

/** `memplane agentcore ...`: maintenance of an AgentCore memory for `@memplane/agentcore`. */
export const agentCoreCommand: AgentCoreCommand = {
  name: 'agentcore',
  summary: 'Set up an AWS Bedrock AgentCore memory for @memplane/agentcore (declare its indexed keys).',
  usage: 'memplane agentcore setup --memory-id <id> [--region <region>] [--dry-run] [--json]',
  async run(argv, output) {
    if (argv.length === 0) {
      output.stderr(`${name}: missing subcommand.\nRun \`${name} --help\` for the usage.\n`);
      return 2;
    }
    const { program, exitCode } = buildProgram(output);
    try {
      await program.parseAsync(argv, { from: 'user' });
      return exitCode();
    } catch (error) {
      // commander has already printed its message (or the help, or the version).
      if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
      // Typed errors carry a message written for the user; anything else is a bug worth its stack.
      if (!MemoryError.isInstance(error)) throw error;
      output.stderr(`${name}: ${error.code}: ${error.message}\n`);
      return MemoryValidationError.isInstance(error) || MemoryConfigurationError.isInstance(error) ? 2 : 1;
    }
  },
};
