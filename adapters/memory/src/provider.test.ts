import { defineMemoryProvider, type MemoryProviderBuildContext } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { memoryAdapterCapabilities } from './memory-adapter';
import { memoryAdapterSettingsSchema } from './memory-settings';
import providerByDefault, { provider } from './provider';

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
  store: 'an object: each binding gets a store of its own',
  faults: 'an object for tests: a binding never injects faults',
  now: 'a function: a binding runs on the real clock',
};

/**
 * One value a binding may give each setting of the adapter. A setting added to the adapter
 * without a value here fails the walk below: give it one, or list it in `notSettable`.
 */
const bindingValues: Record<string, unknown> = {
  cursorSecret: reference('MEMORY_CURSOR_SECRET'),
  timeoutMs: 10_000,
  extractionPollsToFinish: 1,
};

const configSchema = provider.configSchema as z.ZodObject;

describe('the memory provider description', () => {
  it('passes defineMemoryProvider under the id and package hosts know, as the default export too', () => {
    expect(providerByDefault).toBe(provider);
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(provider).toMatchObject({ providerId: 'memory', packageName: '@memplane/memory', capabilities: memoryAdapterCapabilities });
    expect(provider.destination).toBeUndefined();
    expect(provider.localRootField).toBeUndefined();
  });

  it('accepts its config example, and refuses a plain cursor secret', () => {
    expect(configSchema.safeParse(provider.configExample).success).toBe(true);
    expect(provider.secretFields).toEqual(['cursorSecret']);
    expect(configSchema.safeParse({ cursorSecret: 'a-plain-secret-value-of-some-length' }).success).toBe(false);
  });

  it('lets a binding set every setting of the adapter but the objects and functions', () => {
    for (const setting of Object.keys(memoryAdapterSettingsSchema.shape)) {
      if (setting in notSettable) {
        expect(configSchema.shape, setting).not.toHaveProperty(setting);
        expect(configSchema.safeParse({ [setting]: 'anything' }).success, setting).toBe(false);
        continue;
      }
      expect(bindingValues, `no binding value for the setting "${setting}": add one, or list it in notSettable and the README`).toHaveProperty(setting);
      expect(configSchema.safeParse({ [setting]: bindingValues[setting] }).success, setting).toBe(true);
      if (!provider.secretFields?.includes(setting)) expect(memoryAdapterSettingsSchema.safeParse({ [setting]: bindingValues[setting] }).success, setting).toBe(true);
    }
  });

  it('builds a working adapter from a resolved config', async () => {
    const adapter = await provider.create({ cursorSecret: 'resolved-cursor-secret', extractionPollsToFinish: 1 }, context);
    const scope = { companyId: 'acme', agentId: 'planner' };
    await adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    const { snippets } = await adapter.query({ bindingKey: 'default', scope, query: 'when do deploys happen?' });
    expect(snippets.map((snippet) => snippet.text)).toEqual(['Deploys happen on Tuesdays.']);
  });

  it('refuses to build an adapter from a config its schema refuses, naming the setting', () => {
    expect(() => provider.create({ timeoutMs: -1 }, context)).toThrow(/settings\.timeoutMs/);
  });
});
