import { defineMemoryProvider, type MemoryProviderBuildContext } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { mem0Capabilities } from './mem0-capabilities';
import { defaultMem0BaseURL, mem0AdapterSettingsSchema } from './mem0-settings';
import providerByDefault, { provider } from './provider';
import { createMem0Fake } from './testing/mem0-fake-server';
import { testCursorSecret } from './testing/mem0-test-support';

// The fake answers at the official endpoint, so a binding without baseURL is tested as it runs.
const fake = createMem0Fake({ host: defaultMem0BaseURL });
setupTestServer(fake.handlers);

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
const notSettable = { fetch: 'a function: the host uses its own fetch' };

/**
 * One value a binding may give each setting of the adapter. A setting added to the adapter
 * without a value here fails the walk below: give it one, or list it in `notSettable`.
 */
const bindingValues: Record<string, unknown> = {
  apiKey: reference('MEM0_API_KEY'),
  baseURL: 'https://api.mem0.ai',
  headers: { 'x-trace': 'trace-1' },
  timeoutMs: 10_000,
  retry: { maxRetries: 1, initialDelayMs: 10 },
  cursorSecret: reference('MEM0_CURSOR_SECRET'),
  captureRole: 'assistant',
  searchThreshold: 0.4,
  billingType: 'metered_api',
  attributionMode: 'billed_directly',
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

describe('the mem0 provider description', () => {
  it('passes defineMemoryProvider under the id and package hosts know, as the default export too', () => {
    expect(providerByDefault).toBe(provider);
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(provider).toMatchObject({ providerId: 'mem0', packageName: '@memplane/mem0', requiredFields: ['apiKey'], capabilities: mem0Capabilities });
    expect(provider.destination).toMatchObject({ field: 'baseURL', officialEndpoints: ['https://api.mem0.ai'], passDefault: true });
    expect(provider.destination?.defaultEndpoint({})).toBe('https://api.mem0.ai');
  });

  it('accepts its config example', () => {
    expect(configSchema.safeParse(provider.configExample).success).toBe(true);
  });

  it('refuses a plain value in every secret field', () => {
    expect(provider.secretFields).toEqual(['apiKey', 'cursorSecret']);
    for (const field of provider.secretFields ?? []) {
      const plain = withValue(provider.configExample ?? {}, field, 'a-plain-secret-value-of-some-length');
      expect(configSchema.safeParse(plain).success, field).toBe(false);
    }
  });

  it('lets a binding set every setting of the adapter but the functions', () => {
    for (const setting of Object.keys(mem0AdapterSettingsSchema.shape)) {
      if (setting in notSettable) {
        expect(configSchema.shape, setting).not.toHaveProperty(setting);
        expect(configSchema.safeParse({ ...provider.configExample, [setting]: 'anything' }).success, setting).toBe(false);
        continue;
      }
      expect(bindingValues, `no binding value for the setting "${setting}": add one, or list it in notSettable and the README`).toHaveProperty(setting);
      const config = { ...provider.configExample, [setting]: bindingValues[setting] };
      expect(configSchema.safeParse(config).success, setting).toBe(true);
      // A plain value the adapter takes is what a binding sets, secrets aside (they are references).
      if (!provider.secretFields?.includes(setting)) expect(mem0AdapterSettingsSchema.safeParse({ [setting]: bindingValues[setting] }).success, setting).toBe(true);
    }
  });

  it('builds a working adapter with the package factory, at the default endpoint when baseURL is left out', async () => {
    const adapter = await provider.create({ apiKey: fake.apiKey, cursorSecret: testCursorSecret, timeoutMs: 2_000, retry: { maxRetries: 0 } }, context);
    expect(adapter.key).toBe('mem0');
    const scope = { companyId: 'acme', agentId: 'planner' };
    const written = await adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    expect(written.records).toHaveLength(1);
    const page = await adapter.list({ bindingKey: 'default', scope });
    expect(page.items.map((item) => item.text)).toEqual(['Deploys happen on Tuesdays.']);
  });

  it('refuses to build an adapter from a config its schema refuses, naming the setting', () => {
    expect(() => provider.create({ apiKey: fake.apiKey, timeoutMs: -1 }, context)).toThrow(/settings\.timeoutMs/);
  });
});
