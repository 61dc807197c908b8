import { randomUUID } from 'node:crypto';
import {
  BedrockAgentCoreControlClient,
  GetMemoryCommand,
  UpdateMemoryCommand,
  type BedrockAgentCoreControlClientConfig,
} from '@aws-sdk/client-bedrock-agentcore-control';
import { callWithRetry, MemoryConfigurationError, MemoryValidationError, parseInput, parseProviderResult } from '@memplane/core';
import { z } from 'zod';
import { toMemoryError } from './agentcore-error';
import { agentCoreIndexedKeys } from './agentcore-scope-mapping';
import { memoryIdPattern } from './agentcore-settings';

/** Settings of {@link setupAgentCoreMemory}. */
export interface AgentCoreMemorySetupSettings {
  /** The memory to set up: its id (`name-0123456789`) or ARN, as given to the adapter. */
  memoryId: string;
  /** A control-plane client you built. Not allowed with `region`, `credentials` or `endpoint`. */
  client?: BedrockAgentCoreControlClient;
  /** The region of the client built otherwise. Default `AWS_REGION`, then `AWS_DEFAULT_REGION`. */
  region?: string;
  /** Credentials of the client built otherwise. Default the SDK's provider chain. */
  credentials?: BedrockAgentCoreControlClientConfig['credentials'];
  /** An endpoint override of the client built otherwise. */
  endpoint?: string;
  /** Only report what would be declared; change nothing. Default false. */
  dryRun?: boolean;
  /** The timeout of each call, in milliseconds. Default 30000. */
  timeoutMs?: number;
}

/** What {@link setupAgentCoreMemory} found and did. */
export interface AgentCoreMemorySetupResult {
  /** The memory id the control plane was asked about. */
  memoryId: string;
  /** The adapter's keys that were already declared. */
  alreadyDeclared: string[];
  /** The keys this call declared (or, with `dryRun`, would declare). */
  added: string[];
  /** Every indexed key of the memory afterwards, the adapter's and others'. */
  indexedKeys: Array<{ key: string; type: string }>;
  /** Whether nothing was changed because `dryRun` was set. */
  dryRun: boolean;
}

/** AgentCore keeps at most 10 indexed keys per memory and never removes one (long-term-memory-metadata.html). */
export const agentCoreMaximumIndexedKeys = 10;

const settingsSchema = z.strictObject({
  memoryId: z.string().regex(memoryIdPattern, 'must be an AgentCore memory id (name-0123456789) or memory ARN'),
  client: z
    .custom<BedrockAgentCoreControlClient>(
      (value) => typeof value === 'object' && value !== null && typeof (value as { send?: unknown }).send === 'function',
      'must be a BedrockAgentCoreControlClient',
    )
    .optional(),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as us-east-1').optional(),
  credentials: z.unknown().optional(),
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  dryRun: z.boolean().optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
});

const memorySchema = z.object({
  memory: z.object({
    status: z.string(),
    indexedKeys: z.array(z.object({ key: z.string(), type: z.string() })).optional(),
  }),
});

function controlClient(settings: z.output<typeof settingsSchema>): BedrockAgentCoreControlClient {
  if (settings.client !== undefined) {
    for (const field of ['region', 'credentials', 'endpoint'] as const) {
      if (settings[field] !== undefined) {
        throw new MemoryValidationError({
          target: 'AgentCore memory setup settings',
          issues: [{ path: `settings.${field}`, message: 'must not be set together with client: configure the client you built instead' }],
        });
      }
    }
    return settings.client;
  }
  const region = settings.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (region === undefined || region.trim() === '') {
    throw new MemoryConfigurationError({ message: 'The AgentCore memory setup needs a region: pass settings.region, set AWS_REGION, or pass a client you built.' });
  }
  return new BedrockAgentCoreControlClient({
    region,
    maxAttempts: 1,
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials as BedrockAgentCoreControlClientConfig['credentials'] }),
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
  });
}

/**
 * Declares the metadata keys the adapter filters on ({@link agentCoreIndexedKeys}) as `STRING`
 * indexed keys of the memory, through the control plane: `GetMemory`, then `UpdateMemory` with
 * `addIndexedKeys` for the missing ones. AgentCore refuses a metadata filter on an undeclared
 * key, so without this a scope naming a project, issue, run, subject, session key or namespace
 * cannot be listed or queried. Safe to run again: declared keys are left alone. Fails with
 * `MemoryConfigurationError`, changing nothing, when a key is declared with another type, when
 * the memory is not `ACTIVE`, or when the keys would exceed AgentCore's 10 per memory (keys
 * cannot be removed, so it never declares some and gives up on others).
 */
export async function setupAgentCoreMemory(settings: AgentCoreMemorySetupSettings): Promise<AgentCoreMemorySetupResult> {
  const valid = parseInput(settingsSchema, settings, 'AgentCore memory setup settings', 'settings');
  const client = controlClient(valid);
  const memoryId = valid.memoryId.replace(/^arn:[^/]+\//, '');
  const call = async <Value>(operation: string, send: (abortSignal: AbortSignal) => Promise<unknown>): Promise<Value> =>
    callWithRetry(
      async (abortSignal) => {
        let output: unknown;
        try {
          output = await send(abortSignal);
        } catch (error) {
          throw toMemoryError(error, { operation });
        }
        return parseProviderResult(memorySchema, output, `AgentCore ${operation} response`) as Value;
      },
      { operation: `AgentCore ${operation}`, timeoutMs: valid.timeoutMs ?? 30_000 },
    );
  const { memory } = await call<z.output<typeof memorySchema>>('GetMemory', (abortSignal) => client.send(new GetMemoryCommand({ memoryId }), { abortSignal }));
  const existing = memory.indexedKeys ?? [];
  const declared = new Map(existing.map(({ key, type }) => [key, type]));
  const wrongType = agentCoreIndexedKeys.filter((key) => declared.has(key) && declared.get(key) !== 'STRING');
  if (wrongType.length > 0) {
    throw new MemoryConfigurationError({
      message: `Memory ${memoryId} declares ${wrongType.join(', ')} with a type other than STRING; indexed keys cannot be changed or removed, so this memory cannot serve the adapter. Use a new memory.`,
    });
  }
  const alreadyDeclared = agentCoreIndexedKeys.filter((key) => declared.has(key));
  const added = agentCoreIndexedKeys.filter((key) => !declared.has(key));
  if (existing.length + added.length > agentCoreMaximumIndexedKeys) {
    throw new MemoryConfigurationError({
      message: `Memory ${memoryId} has ${existing.length} indexed keys and the adapter needs ${added.length} more (${added.join(', ')}); AgentCore allows ${agentCoreMaximumIndexedKeys} and never removes one. Nothing was declared. Use a memory with ${added.length} free indexed keys.`,
    });
  }
  if (added.length === 0 || valid.dryRun === true) {
    const planned = valid.dryRun === true ? added.map((key) => ({ key, type: 'STRING' })) : [];
    return { memoryId, alreadyDeclared, added, indexedKeys: [...existing, ...planned], dryRun: valid.dryRun === true };
  }
  if (memory.status !== 'ACTIVE') {
    throw new MemoryConfigurationError({ message: `Memory ${memoryId} is ${memory.status}; run the setup again when it is ACTIVE. Nothing was declared.` });
  }
  const updated = await call<z.output<typeof memorySchema>>('UpdateMemory', (abortSignal) =>
    client.send(
      new UpdateMemoryCommand({ memoryId, clientToken: randomUUID(), addIndexedKeys: added.map((key) => ({ key, type: 'STRING' })) }),
      { abortSignal },
    ),
  );
  return { memoryId, alreadyDeclared, added, indexedKeys: updated.memory.indexedKeys ?? [], dryRun: false };
}
