/**
 * The provider description of `@memplane/agentcore`, the `./provider` subpath: what a memplane
 * host (the memory service, `memplane serve`, `memplane-mcp`) loads by package name to let
 * company admins bind AWS Bedrock AgentCore Memory.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { z } from 'zod';
import { createAgentCoreAdapter } from './agentcore-adapter';
import { agentCoreCapabilities } from './agentcore-capabilities';
import { agentCoreAdapterSettingsSchema, type AgentCoreAdapterSettings } from './agentcore-settings';

const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** The AgentCore endpoint of a config's region, as the AWS SDK's endpoint rules build it, or undefined without a valid region. */
function regionalEndpointOf(config: Record<string, unknown>): string | undefined {
  const region = config.region;
  if (typeof region !== 'string' || !regionPattern.test(region)) return undefined;
  return `https://bedrock-agentcore.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;
}

/**
 * Static credentials in a binding: the settings take whatever the AWS SDK takes (a provider
 * function among them), a binding an access key pair and an optional session token, each a
 * secret reference.
 */
const bindingCredentialsSchema = z.strictObject({
  accessKeyId: z.string().min(1),
  secretAccessKey: z.string().min(1),
  sessionToken: z.string().min(1).optional(),
});

const secretFields = ['credentials.accessKeyId', 'credentials.secretAccessKey', 'credentials.sessionToken', 'cursorSecret'];

/**
 * The AgentCore provider: a binding's config is the adapter's settings, with static
 * `credentials` and `cursorSecret` as secret references and without `client` (an SDK object the
 * host cannot take from JSON). `region` and `credentials` are required, so the adapter never
 * reads the host's `AWS_REGION` or falls back to the AWS default credential chain (the host's
 * own role). Requests go to `endpoint`, by default the regional endpoint the SDK derives from
 * `region`; the official endpoints are those of the AWS SDK's endpoint rules.
 */
export const provider = defineMemoryProvider({
  providerId: 'agentcore',
  packageName: '@memplane/agentcore',
  description: 'AWS Bedrock AgentCore Memory (@memplane/agentcore): one memory, a namespace per company.',
  configSchema: bindingConfigSchema(agentCoreAdapterSettingsSchema, {
    omit: ['client'],
    replace: { credentials: bindingCredentialsSchema },
    secretFields,
  }),
  secretFields,
  requiredFields: ['region', 'credentials'],
  destination: {
    field: 'endpoint',
    // From the AWS SDK's endpoint rules for bedrock-agentcore: the standard and FIPS hosts with
    // the DNS suffixes of the commercial and China partitions, dual-stack (api.aws) included.
    officialEndpoints: [
      'https://bedrock-agentcore.*.amazonaws.com',
      'https://bedrock-agentcore-fips.*.amazonaws.com',
      'https://bedrock-agentcore.*.api.aws',
      'https://bedrock-agentcore-fips.*.api.aws',
      'https://bedrock-agentcore.*.amazonaws.com.cn',
      'https://bedrock-agentcore.*.api.amazonwebservices.com.cn',
    ],
    defaultEndpoint: regionalEndpointOf,
    // Left to the SDK, which derives it from region; the host checks the same endpoint.
    passDefault: false,
  },
  configExample: {
    memoryId: 'memplaneMemory-a1b2c3d4e5',
    region: 'us-east-1',
    credentials: { accessKeyId: { $secret: { env: 'AWS_ACCESS_KEY_ID' } }, secretAccessKey: { $secret: { env: 'AWS_SECRET_ACCESS_KEY' } } },
  },
  capabilities: agentCoreCapabilities,
  // The config passed configSchema and its secret references were resolved by the host.
  create: (config) => createAgentCoreAdapter(config as unknown as AgentCoreAdapterSettings),
});

export default provider;
