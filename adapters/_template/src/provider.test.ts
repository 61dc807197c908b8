import { defineMemoryProvider, type MemoryProviderBuildContext } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { setupExampleFakeServer } from './example-fake-server';
import { defaultExampleBaseURL, exampleAdapterSettingsSchema } from './example-settings';
import providerByDefault, { provider } from './provider';

// The fake answers at the default endpoint, so a binding without baseURL is tested as it runs.
const { api } = setupExampleFakeServer({ baseURL: defaultExampleBaseURL });

const context: MemoryProviderBuildContext = {
  companyId: 'company-1',
  bindingId: 'binding-1',
  bindingKey: 'main',
  bindingDirectory: undefined,
  companyDirectory: undefined,
  dataDirectory: undefined,
};

/** Settings a binding cannot set (list them in the README too). */
const notSettable = ['fetch'];

/** One value a binding may give each setting: a setting added without one fails the walk below. */
const bindingValues: Record<string, unknown> = {
  apiKey: { $secret: { env: 'EXAMPLE_API_KEY' } },
  baseURL: defaultExampleBaseURL,
  timeoutMs: 10_000,
  retry: { maxRetries: 1 },
  cursorSecret: { $secret: { env: 'EXAMPLE_CURSOR_SECRET' } },
};

const configSchema = provider.configSchema as z.ZodObject;

describe('the provider description', () => {
  it('passes defineMemoryProvider, as the named and the default export', () => {
    expect(providerByDefault).toBe(provider);
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(provider.providerId).toBe('example');
  });

  it('accepts its config example, and refuses a plain value in every secret field', () => {
    expect(configSchema.safeParse(provider.configExample).success).toBe(true);
    for (const field of provider.secretFields ?? []) {
      expect(configSchema.safeParse({ ...provider.configExample, [field]: 'a-plain-secret-value-of-some-length' }).success, field).toBe(false);
    }
  });

  it('lets a binding set every setting of the adapter but the functions', () => {
    for (const setting of Object.keys(exampleAdapterSettingsSchema.shape)) {
      if (notSettable.includes(setting)) {
        expect(configSchema.shape, setting).not.toHaveProperty(setting);
        continue;
      }
      expect(bindingValues, `no binding value for the setting "${setting}"`).toHaveProperty(setting);
      expect(configSchema.safeParse({ ...provider.configExample, [setting]: bindingValues[setting] }).success, setting).toBe(true);
    }
  });

  it('builds a working adapter, at the default endpoint when baseURL is left out', async () => {
    const adapter = await provider.create({ apiKey: api.apiKey, timeoutMs: 2_000, retry: { maxRetries: 0 } }, context);
    const scope = { companyId: 'company-1', agentId: 'agent-7' };
    const written = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'The team deploys on Tuesdays.' }] });
    const record = await adapter.get(written.records![0]!, scope);
    expect(record?.text).toBe('The team deploys on Tuesdays.');
  });
});
