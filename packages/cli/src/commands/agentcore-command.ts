import { lazyCommand } from './lazy-command';

/** `memplane agentcore ...`: sets up an AgentCore memory for `@memplane/agentcore`, from that package. */
export const agentCoreCommand = lazyCommand({
  name: 'agentcore',
  summary: 'Set up an AWS Bedrock AgentCore memory: declare its indexed keys (from @memplane/agentcore).',
  usage: 'memplane agentcore setup --memory-id <id> [--region <region>] [--dry-run] [--json]',
  packageName: '@memplane/agentcore',
  load: async () => (await import('@memplane/agentcore/cli')).agentCoreCommand,
});
