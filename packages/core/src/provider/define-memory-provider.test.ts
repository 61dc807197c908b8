import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryValidationError } from '../errors/memory-validation-error';
import type { MemoryAdapter } from '../memory-adapter/v1/index';
import { bindingConfigSchema } from './binding-config-schema';
import { defineMemoryProvider } from './define-memory-provider';
import type { MemoryProviderDefinition } from './memory-provider-definition';

const settingsSchema = z.strictObject({
  apiKey: z.string().optional(),
  baseURL: z.url().optional(),
  timeoutMs: z.number().int().positive().optional(),
  fetch: z.custom<typeof fetch>((value) => typeof value === 'function').optional(),
});

const valid = {
  providerId: 'acme-memory',
  packageName: '@acme/memplane-adapter',
  description: 'Acme Memory (@acme/memplane-adapter).',
  configSchema: bindingConfigSchema(settingsSchema, { secretFields: ['apiKey'], omit: ['fetch'] }),
  secretFields: ['apiKey'],
  requiredFields: ['apiKey'],
  destination: {
    field: 'baseURL',
    officialEndpoints: ['https://api.acme.example', 'https://*.acme.example/v1'],
    defaultEndpoint: () => 'https://api.acme.example',
    passDefault: true,
  },
  configExample: { apiKey: { $secret: { env: 'ACME_API_KEY' } }, timeoutMs: 10_000 },
  capabilities: { correction: true, remoteOperations: ['query'] },
  create: (): MemoryAdapter => {
    throw new Error('not built in these tests');
  },
} satisfies MemoryProviderDefinition;

function issuesOf(definition: unknown): string[] {
  try {
    defineMemoryProvider(definition as MemoryProviderDefinition);
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return error.issues.map((issue) => issue.path);
    throw error;
  }
  return [];
}

describe('defineMemoryProvider', () => {
  it('returns a frozen copy with the functions and the config schema given', () => {
    const provider = defineMemoryProvider(valid);
    expect(provider).not.toBe(valid);
    expect(provider).toMatchObject({ providerId: 'acme-memory', secretFields: ['apiKey'], configExample: valid.configExample });
    expect(provider.create).toBe(valid.create);
    expect(provider.configSchema).toBe(valid.configSchema);
    const parts = [
      provider,
      provider.secretFields,
      provider.requiredFields,
      provider.destination,
      provider.destination?.officialEndpoints,
      provider.configExample,
      provider.configExample?.apiKey,
      provider.capabilities,
      provider.capabilities?.remoteOperations,
    ];
    for (const part of parts) {
      expect(part).toBeDefined();
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(Object.isFrozen(valid.capabilities)).toBe(false);
  });

  it('accepts the smallest definition: an id, a description and create', () => {
    expect(issuesOf({ providerId: 'x', description: 'X.', create: valid.create })).toEqual([]);
  });

  it.each([
    ['providerId', { providerId: 'Acme' }],
    ['providerId', { providerId: '1acme' }],
    ['providerId', { providerId: `a${'b'.repeat(64)}` }],
    ['packageName', { packageName: 'Not A Package' }],
    ['description', { description: '' }],
    ['description', { description: 'two\nlines' }],
    ['description', { description: 42 }],
    ['create', { create: 'createAcmeAdapter' }],
    ['checkConfig', { checkConfig: {} }],
    ['configSchema', { configSchema: { parse: () => ({}) } }],
    ['secretFields.0', { secretFields: ['a..b'] }],
    ['secretFields', { secretFields: ['apiKey', 'apiKey'] }],
    ['requiredFields.0', { requiredFields: ['credentials.accessKeyId'] }],
    ['destination.officialEndpoints.0', { destination: { ...valid.destination, officialEndpoints: ['http://api.acme.example'] } }],
    ['destination.officialEndpoints.0', { destination: { ...valid.destination, officialEndpoints: ['https://user:pw@api.acme.example'] } }],
    ['destination.officialEndpoints.0', { destination: { ...valid.destination, officialEndpoints: ['https://api.acme.example/?q=1'] } }],
    ['destination.officialEndpoints.0', { destination: { ...valid.destination, officialEndpoints: ['https://api*.acme.example'] } }],
    ['destination.officialEndpoints.0', { destination: { ...valid.destination, officialEndpoints: ['not a url'] } }],
    ['destination.defaultEndpoint', { destination: { ...valid.destination, defaultEndpoint: 'https://api.acme.example' } }],
    ['destination.passDefault', { destination: { ...valid.destination, passDefault: undefined } }],
    ['configExample', { configExample: [] }],
    ['configExample', { configExample: { when: new Date(0) } }],
    ['capabilities.correction', { capabilities: { correction: 'yes' } }],
    ['loadCapabilities', { loadCapabilities: async () => undefined }],
  ])('names %s when it is wrong', (field, change) => {
    expect(issuesOf({ ...valid, ...change })[0]).toBe(field);
  });

  it('holds the fields it names to its config schema', () => {
    expect(issuesOf({ ...valid, requiredFields: ['apiKey', 'token'] })).toEqual(['requiredFields.1']);
    expect(issuesOf({ ...valid, destination: { ...valid.destination, field: 'endpoint' } })).toEqual(['destination.field']);
    expect(issuesOf({ ...valid, localRootField: 'root' })).toEqual(['localRootField']);
    expect(issuesOf({ ...valid, secretFields: ['apiKey', 'token'] })).toEqual(['secretFields.1']);
    // A secret field the schema would take as a plain value.
    expect(issuesOf({ ...valid, secretFields: ['apiKey', 'baseURL'], configExample: {} })).toEqual(['secretFields.1']);
  });

  it('refuses an example with a plain secret, naming the field and never repeating the value, and one the schema refuses', () => {
    let message = '';
    try {
      defineMemoryProvider({ ...valid, configExample: { apiKey: 'sk-live-value' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('configExample.apiKey');
    expect(message).not.toContain('sk-live-value');
    expect(issuesOf({ ...valid, configExample: { timeoutMs: -1 } })).toEqual(['configExample.timeoutMs']);
    expect(issuesOf({ ...valid, configExample: { fetch: 'x' } })).toEqual(['configExample.fetch']);
  });

  it('refuses a definition that throws while it is read, naming the field', () => {
    const hostile = { ...valid };
    Object.defineProperty(hostile, 'description', {
      enumerable: true,
      get() {
        throw new Error('hostile');
      },
    });
    expect(issuesOf(hostile)).toEqual(['description']);
  });
});
