import { defineMemoryProvider, type MemoryProviderBuildContext } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { agentCoreCapabilities } from './agentcore-capabilities';
import { agentCoreAdapterSettingsSchema } from './agentcore-settings';
import providerByDefault, { provider } from './provider';
import { agentCoreEndpoint } from './testing/agentcore-fake-responses';
import { setupAgentCoreTestEnvironment, testMemoryId, testRegion } from './testing/agentcore-test-environment';

// The fake answers at the regional endpoint, so a binding without endpoint is tested as it runs.
const environment = setupAgentCoreTestEnvironment();

const reference = (env: string) => ({ $secret: { env } });
const context: MemoryProviderBuildContext = {
  companyId: 'acme',
  bindingId: 'bnd_1',
  bindingKey: 'default',
  bindingDirectory: undefined,
  companyDirectory: undefined,
  dataDirectory: undefined,
};

/** Settings a binding cannot set, and why (the README lists them). */
const notSettable = { client: 'an SDK object: the adapter builds its client from region, credentials and endpoint' };

/**
 * One value a binding may give each setting of the adapter. A setting added to the adapter
 * without a value here fails the walk below: give it one, or list it in `notSettable`.
 */
const bindingValues: Record<string, unknown> = {
  memoryId: 'arn:aws:bedrock-agentcore:eu-west-1:123456789012:memory/memplaneMemory-a1b2c3d4e5',
  region: 'eu-west-1',
  credentials: { accessKeyId: reference('AWS_ACCESS_KEY_ID'), secretAccessKey: reference('AWS_SECRET_ACCESS_KEY'), sessionToken: reference('AWS_SESSION_TOKEN') },
  endpoint: 'https://bedrock-agentcore-fips.us-east-1.amazonaws.com',
  timeoutMs: 10_000,
  retry: { maxRetries: 1, initialDelayMs: 10 },
  cursorSecret: reference('AGENTCORE_CURSOR_SECRET'),
  sendNamespaceWithRecordCalls: false,
  silenceNodeVersionWarning: true,
};

const configSchema = provider.configSchema as z.ZodObject;

function withValue(config: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(config);
  const segments = path.split('.');
  let node = copy;
  for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
  node[segments.at(-1)!] = value;
  return copy;
}

describe('the AgentCore provider description', () => {
  it('passes defineMemoryProvider under the id and package hosts know, as the default export too', () => {
    expect(providerByDefault).toBe(provider);
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(provider).toMatchObject({
      providerId: 'agentcore',
      packageName: '@memplane/agentcore',
      requiredFields: ['region', 'credentials'],
      capabilities: agentCoreCapabilities,
    });
    expect(provider.destination).toMatchObject({ field: 'endpoint', passDefault: false });
  });

  it('derives the default endpoint from the region, as the AWS SDK does, and only from a valid one', () => {
    const defaultOf = (config: Record<string, unknown>) => provider.destination?.defaultEndpoint(config);
    expect(defaultOf({ region: testRegion })).toBe(agentCoreEndpoint(testRegion));
    expect(defaultOf({ region: 'cn-north-1' })).toBe('https://bedrock-agentcore.cn-north-1.amazonaws.com.cn');
    expect(defaultOf({})).toBeUndefined();
    expect(defaultOf({ region: 'us-east-1.evil.example' })).toBeUndefined();
    // Each default is on the official list (a `*` is one DNS label).
    const official = (provider.destination?.officialEndpoints ?? []).map((entry) => new RegExp(`^${entry.replace(/\./g, '\\.').replace('*', '[a-z0-9-]+')}$`));
    for (const region of ['us-east-1', 'eu-central-1', 'cn-northwest-1']) {
      expect(official.some((pattern) => pattern.test(defaultOf({ region }) ?? '')), region).toBe(true);
    }
  });

  it('accepts its config example', () => {
    expect(configSchema.safeParse(provider.configExample).success).toBe(true);
  });

  it('refuses a plain value in every secret field', () => {
    expect(provider.secretFields).toEqual(['credentials.accessKeyId', 'credentials.secretAccessKey', 'credentials.sessionToken', 'cursorSecret']);
    for (const field of provider.secretFields ?? []) {
      const plain = withValue(provider.configExample ?? {}, field, 'a-plain-secret-value-of-some-length');
      expect(configSchema.safeParse(plain).success, field).toBe(false);
    }
  });

  it('lets a binding set every setting of the adapter but the functions', () => {
    for (const setting of Object.keys(agentCoreAdapterSettingsSchema.shape)) {
      if (setting in notSettable) {
        expect(configSchema.shape, setting).not.toHaveProperty(setting);
        expect(configSchema.safeParse({ ...provider.configExample, [setting]: 'anything' }).success, setting).toBe(false);
        continue;
      }
      expect(bindingValues, `no binding value for the setting "${setting}": add one, or list it in notSettable and the README`).toHaveProperty(setting);
      const config = { ...provider.configExample, [setting]: bindingValues[setting] };
      expect(configSchema.safeParse(config).success, setting).toBe(true);
      // A plain value the adapter takes is what a binding sets, secrets aside (they are references).
      if (!provider.secretFields?.includes(setting)) expect(agentCoreAdapterSettingsSchema.safeParse({ memoryId: testMemoryId, [setting]: bindingValues[setting] }).success, setting).toBe(true);
    }
  });

  it('builds a working adapter with the package factory, at the regional endpoint when endpoint is left out', async () => {
    const adapter = await provider.create(
      {
        memoryId: testMemoryId,
        region: testRegion,
        credentials: { accessKeyId: 'AKIDMEMPLANETEST', secretAccessKey: 'memplane-test-secret' },
        timeoutMs: 2_000,
        retry: { maxRetries: 0 },
      },
      context,
    );
    expect(adapter.key).toBe('agentcore');
    const scope = { companyId: 'acme', agentId: 'planner' };
    const written = await adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    expect(written.records).toHaveLength(1);
    const record = await adapter.get(written.records![0]!, scope);
    expect(record?.text).toBe('Deploys happen on Tuesdays.');
    expect(environment.server.calls.every((call) => call.url.startsWith(agentCoreEndpoint(testRegion)))).toBe(true);
  });

  it('refuses to build an adapter from a config its schema refuses, naming the setting', () => {
    expect(() => provider.create({ memoryId: 'not a memory id', region: testRegion }, context)).toThrow(/settings\.memoryId/);
  });
});
