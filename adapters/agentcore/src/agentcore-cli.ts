import { parseArgs } from 'node:util';
import { MemoryError } from '@memplane/core';
import { setupAgentCoreMemory } from './agentcore-memory-setup';

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
  /** Usage text. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage error). */
  run(argv: string[], output: AgentCoreCommandOutput): Promise<number>;
}

const usage = `memplane agentcore setup --memory-id ID [--region REGION] [--endpoint URL] [--dry-run] [--json]

  Declares the metadata keys @memplane/agentcore filters on as STRING indexed keys of the
  memory (GetMemory, then UpdateMemory addIndexedKeys). Run it once per memory, before the
  adapter writes. Indexed keys cannot be removed and a memory holds at most 10.
  Credentials come from the AWS SDK's default chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, ...).

  --dry-run   show what would be declared, change nothing
  --json      print the result as JSON`;

const options = {
  'memory-id': { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

async function runSetup(argv: string[], output: AgentCoreCommandOutput): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: false }>>['values'];
  try {
    ({ values } = parseArgs({ args: argv, options, allowPositionals: false, strict: true }));
  } catch (error) {
    output.stderr(`${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  if (values.help === true) {
    output.stdout(`${usage}\n`);
    return 0;
  }
  if (values['memory-id'] === undefined) {
    output.stderr(`--memory-id is required.\n\n${usage}\n`);
    return 2;
  }
  const result = await setupAgentCoreMemory({
    memoryId: values['memory-id'],
    ...(values.region === undefined ? {} : { region: values.region }),
    ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
    dryRun: values['dry-run'] === true,
  });
  if (values.json === true) {
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

/** `memplane agentcore ...`: maintenance of an AgentCore memory for `@memplane/agentcore`. */
export const agentCoreCommand: AgentCoreCommand = {
  name: 'agentcore',
  summary: 'Set up an AgentCore memory for @memplane/agentcore (declare its indexed keys).',
  usage,
  async run(argv, output) {
    const [subcommand, ...rest] = argv;
    if (subcommand === undefined || subcommand === '--help' || subcommand === 'help') {
      output.stdout(`${usage}\n`);
      return subcommand === undefined ? 2 : 0;
    }
    if (subcommand !== 'setup') {
      output.stderr(`Unknown command agentcore ${subcommand}.\n\n${usage}\n`);
      return 2;
    }
    try {
      return await runSetup(rest, output);
    } catch (error) {
      // Typed errors carry a message written for the user; anything else is a bug worth its stack.
      if (!MemoryError.isInstance(error)) throw error;
      output.stderr(`${error.code}: ${error.message}\n`);
      return 1;
    }
  },
};
