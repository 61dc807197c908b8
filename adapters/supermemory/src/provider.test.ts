import { defineMemoryProvider, type MemoryProviderBuildContext } from '@memplane/core';
import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import providerByDefault, { provider } from './provider';
import { supermemoryCapabilities } from './supermemory-capabilities';
import { supermemoryAdapterSettingsSchema } from './supermemory-settings';
import { fakeApiKey, fakeCursorSecret, setupSupermemoryFake } from './testing/supermemory-test-setup';

// The fake answers at the official endpoint, so a binding without baseURL is tested as it runs.
const environment = setupSupermemoryFake();

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
const notSettable = {
  client: 'an SDK object: the adapter builds its own client from the binding',
  fetch: 'a function: the host uses its own fetch',
};

/**
 * One value a binding may give each setting of the adapter. A setting added to the adapter
 * without a value here fails the walk below: give it one, or list it in `notSettable`.
 */
const bindingValues: Record<string, unknown> = {
  apiKey: reference('SUPERMEMORY_API_KEY'),
  baseURL: 'https://api.supermemory.ai',
  headers: { 'x-trace': 'trace-1' },
  containerTagPrefix: 'acme-prod',
  timeoutMs: 10_000,
  retry: { maxRetries: 1, initialDelayMs: 10 },
  cursorSecret: reference('SUPERMEMORY_CURSOR_SECRET'),
  searchThreshold: 0.4,
  extractionNotFoundGraceMs: 60_000,
  billingType: 'subscription_included',
  attributionMode: 'external_invoice',
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

describe('the Supermemory provider description', () => {
  it('passes defineMemoryProvider under the id and package hosts know, as the default export too', () => {
    expect(providerByDefault).toBe(provider);
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(provider).toMatchObject({
      providerId: 'supermemory',
      packageName: '@memplane/supermemory',
      requiredFields: ['apiKey'],
      capabilities: supermemoryCapabilities,
    });
    expect(provider.destination).toMatchObject({ field: 'baseURL', officialEndpoints: ['https://api.supermemory.ai'], passDefault: true });
    expect(provider.destination?.defaultEndpoint({})).toBe('https://api.supermemory.ai');
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
    for (const setting of Object.keys(supermemoryAdapterSettingsSchema.shape)) {
      if (setting in notSettable) {
        expect(configSchema.shape, setting).not.toHaveProperty(setting);
        expect(configSchema.safeParse({ ...provider.configExample, [setting]: 'anything' }).success, setting).toBe(false);
        continue;
      }
      expect(bindingValues, `no binding value for the setting "${setting}": add one, or list it in notSettable and the README`).toHaveProperty(setting);
      const config = { ...provider.configExample, [setting]: bindingValues[setting] };
      expect(configSchema.safeParse(config).success, setting).toBe(true);
      // A plain value the adapter takes is what a binding sets, secrets aside (they are references).
      if (!provider.secretFields?.includes(setting)) expect(supermemoryAdapterSettingsSchema.safeParse({ [setting]: bindingValues[setting] }).success, setting).toBe(true);
    }
  });

  it('builds a working adapter with the package factory, at the default endpoint when baseURL is left out', async () => {
    // Were the default not written into the settings, the adapter would read this variable.
    vi.stubEnv('SUPERMEMORY_BASE_URL', 'https://elsewhere.invalid');
    try {
      const adapter = await provider.create({ apiKey: fakeApiKey, cursorSecret: fakeCursorSecret, timeoutMs: 2_000, retry: { maxRetries: 0 } }, context);
      expect(adapter.key).toBe('supermemory');
      const scope = { companyId: `provider-test-${Date.now()}`, agentId: 'planner' };
      const written = await adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
      expect(written.records).toHaveLength(1);
      environment.fake.store.settle();
      const record = await adapter.get(written.records![0]!, scope);
      expect(record?.text).toBe('Deploys happen on Tuesdays.');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses to build an adapter from a config its schema refuses, naming the setting', () => {
    expect(() => provider.create({ apiKey: fakeApiKey, timeoutMs: -1 }, context)).toThrow(/settings\.timeoutMs/);
  });
});
