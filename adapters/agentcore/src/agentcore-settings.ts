import type { BedrockAgentCoreClient, BedrockAgentCoreClientConfig } from '@aws-sdk/client-bedrock-agentcore';
import {
  cursorSecretSchema,
  MemoryConfigurationError,
  MemoryValidationError,
  parseInput,
  retryPolicyOverridesSchema,
  type RetryPolicy,
} from '@memplane/core';
import { z } from 'zod';

/** Settings of {@link createAgentCoreAdapter}. */
export interface AgentCoreAdapterSettings {
  /**
   * The AgentCore Memory resource: its id (`name-0123456789`) or ARN. One memory per
   * environment; companies are separated inside it by namespace. Required.
   */
  memoryId: string;
  /**
   * A `BedrockAgentCoreClient` you built, with your credentials, region, request handler and
   * middleware. The adapter only calls `client.send`. Give it `maxAttempts: 1`, or the SDK's
   * own retries run inside each attempt of the adapter's retry policy.
   * Without it, the adapter builds a client from `region`, `credentials` and `endpoint`.
   */
  client?: BedrockAgentCoreClient;
  /**
   * The AWS region of the memory, for the client the adapter builds. Default: `AWS_REGION`,
   * then `AWS_DEFAULT_REGION`. Not allowed together with `client`.
   */
  region?: string;
  /**
   * Credentials for the client the adapter builds. Default: the AWS SDK's default provider
   * chain (environment, shared config, SSO, instance roles). Not allowed together with `client`.
   */
  credentials?: BedrockAgentCoreClientConfig['credentials'];
  /** An endpoint override for the client the adapter builds (a VPC endpoint or a proxy). Not allowed together with `client`. */
  endpoint?: string;
  /** The timeout of each attempt of each call, in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** Overrides of the core retry policy (2 retries, exponential backoff with full jitter, Retry-After honoured). */
  retry?: Partial<RetryPolicy>;
  /**
   * The HMAC secret that signs list and job cursors. Use the same secret in every process that
   * serves the same binding so cursors survive restarts. Default: a random secret per adapter.
   */
  cursorSecret?: string | Uint8Array;
  /**
   * Sends the scope's namespace with `GetMemoryRecord` and the record's namespace with deletes,
   * so IAM policies with AgentCore's namespace condition keys can enforce the tenant boundary
   * on the AWS side too. Turn it off if your memory rejects those parameters. Default true.
   */
  sendNamespaceWithRecordCalls?: boolean;
  /**
   * Silences the AWS SDK's `NodeVersionSupportWarning` on Node 20 by setting
   * `AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true` for this process before the
   * adapter builds its client. Only what you ask for: default false, and it has no effect on a
   * `client` you built yourself (the SDK warns when a client is built).
   */
  silenceNodeVersionWarning?: boolean;
}

/** The settings after validation, with the defaults applied. */
export interface ResolvedAgentCoreSettings {
  /** The memory id or ARN. */
  memoryId: string;
  /** The client given, or undefined when the adapter builds one. */
  client: BedrockAgentCoreClient | undefined;
  /** The region of the client the adapter builds. */
  region: string | undefined;
  /** Credentials of the client the adapter builds. */
  credentials: BedrockAgentCoreClientConfig['credentials'] | undefined;
  /** The endpoint override of the client the adapter builds. */
  endpoint: string | undefined;
  /** The timeout of each attempt, in milliseconds. */
  timeoutMs: number;
  /** Overrides of the core retry policy. */
  retry: Partial<RetryPolicy>;
  /** The cursor secret, when one was given. */
  cursorSecret: string | Uint8Array | undefined;
  /** Whether record calls carry the namespace for IAM. */
  sendNamespaceWithRecordCalls: boolean;
  /** Whether to silence the Node version warning. */
  silenceNodeVersionWarning: boolean;
}

/** The pattern of a memory id or memory ARN, as the AgentCore API reference gives it. */
export const memoryIdPattern =
  /^(arn:(aws|aws-cn|aws-us-gov):bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:memory\/)?[a-zA-Z][a-zA-Z0-9-_]{0,99}-[a-zA-Z0-9]{10}$/;

/**
 * The schema of {@link AgentCoreAdapterSettings}: what `createAgentCoreAdapter` validates, and
 * what the provider description (`@memplane/agentcore/provider`) derives the binding config from.
 */
export const agentCoreAdapterSettingsSchema = z.strictObject({
  memoryId: z.string().regex(memoryIdPattern, 'must be an AgentCore memory id (name-0123456789) or memory ARN'),
  client: z
    .custom<BedrockAgentCoreClient>(
      (value) => typeof value === 'object' && value !== null && typeof (value as { send?: unknown }).send === 'function',
      'must be a BedrockAgentCoreClient',
    )
    .optional(),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as us-east-1').optional(),
  credentials: z.unknown().optional(),
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  retry: retryPolicyOverridesSchema.optional(),
  cursorSecret: cursorSecretSchema.optional(),
  sendNamespaceWithRecordCalls: z.boolean().optional(),
  silenceNodeVersionWarning: z.boolean().optional(),
});

function refuseWithClient(field: 'region' | 'credentials' | 'endpoint'): never {
  throw new MemoryValidationError({
    target: 'AgentCore adapter settings',
    issues: [{ path: `settings.${field}`, message: 'must not be set together with client: configure the client you built instead' }],
  });
}

/**
 * Validates the settings and applies the defaults. Throws `MemoryValidationError` naming the
 * bad setting, or `MemoryConfigurationError` when no region is set anywhere.
 */
export function resolveAgentCoreSettings(
  settings: AgentCoreAdapterSettings,
  environment: Record<string, string | undefined> = process.env,
): ResolvedAgentCoreSettings {
  const valid = parseInput(agentCoreAdapterSettingsSchema, settings, 'AgentCore adapter settings', 'settings');
  let region = valid.region;
  if (valid.client !== undefined) {
    if (valid.region !== undefined) refuseWithClient('region');
    if (valid.credentials !== undefined) refuseWithClient('credentials');
    if (valid.endpoint !== undefined) refuseWithClient('endpoint');
  } else {
    region ??= environment.AWS_REGION ?? environment.AWS_DEFAULT_REGION;
    if (region === undefined || region.trim() === '') {
      throw new MemoryConfigurationError({
        message: 'The AgentCore adapter needs a region: pass settings.region, set AWS_REGION, or pass a client you built.',
      });
    }
  }
  return {
    memoryId: valid.memoryId,
    client: valid.client,
    region,
    credentials: valid.credentials as BedrockAgentCoreClientConfig['credentials'] | undefined,
    endpoint: valid.endpoint,
    timeoutMs: valid.timeoutMs ?? 30_000,
    retry: valid.retry ?? {},
    cursorSecret: valid.cursorSecret,
    sendNamespaceWithRecordCalls: valid.sendNamespaceWithRecordCalls ?? true,
    silenceNodeVersionWarning: valid.silenceNodeVersionWarning ?? false,
  };
}
