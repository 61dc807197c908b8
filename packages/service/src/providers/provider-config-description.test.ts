import { provider as agentCoreProvider } from '@memplane/agentcore/provider';
import { secretReferenceSchema } from '@memplane/core';
import { provider as mem0Provider } from '@memplane/mem0/provider';
import { createMemoryAdapter } from '@memplane/memory';
import { provider as supermemoryProvider } from '@memplane/supermemory/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, createTestService, testProviders } from '../test-support/service-test-support';
import { configExampleIssues } from './provider-config-description';
import { createProviderRegistry } from './provider-registry';

const hostedProviders = [mem0Provider, supermemoryProvider, agentCoreProvider];

/** A registry holding the test providers and the hosted ones, as a host would configure it. */
function registryOfEveryProvider() {
  const registry = createProviderRegistry();
  for (const definition of [...testProviders, ...hostedProviders]) registry.register(definition, { origin: 'configured' });
  return registry;
}

describe('provider config descriptions', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: Parameters<typeof createTestService>[0] = {}): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('converts a config schema to JSON Schema, a secret field to a $secret reference', () => {
    const markdown = registryOfEveryProvider().describe('markdown');
    expect(markdown).toMatchObject({ providerId: 'markdown', origin: 'configured', secretFields: ['cursorSecret'], configExample: { fusion: 'rrf' } });
    expect(markdown?.configSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        sectionsPerFile: { type: 'integer', minimum: 1, maximum: 100_000 },
        neighbourWindows: { type: 'boolean' },
        lexicalWeights: { type: 'object', properties: { body: { type: 'number', minimum: 0 } } },
        cursorSecret: {
          oneOf: [
            { properties: { $secret: { required: ['env'] } }, required: ['$secret'] },
            { properties: { $secret: { required: ['key'] } }, required: ['$secret'] },
          ],
        },
      },
    });
    expect(markdown?.configSchema).not.toHaveProperty('properties.embedder');
    expect(registryOfEveryProvider().describe('nope')).toBeUndefined();
  });

  it('gives every adapter package’s provider an example that passes the service’s own checks, and a strict JSON Schema', () => {
    const registry = registryOfEveryProvider();
    for (const definition of [...testProviders, ...hostedProviders]) {
      expect(configExampleIssues(definition), definition.providerId).toEqual([]);
      const description = registry.describe(definition.providerId);
      expect(description?.configSchema, definition.providerId).toMatchObject({ type: 'object', additionalProperties: false });
      for (const field of definition.secretFields ?? []) {
        expect(JSON.stringify(description?.configSchema), `${definition.providerId} ${field}`).toContain('$secret');
      }
    }
  });

  it('hands out copies: changing a description changes nothing the next caller sees', () => {
    const registry = registryOfEveryProvider();
    const first = registry.describe('mem0');
    (first!.configExample as Record<string, unknown>).apiKey = 'sk-changed';
    (first!.configSchema as Record<string, unknown>).type = 'string';
    expect(registry.describe('mem0')).toMatchObject({ configExample: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } }, configSchema: { type: 'object' } });
  });

  it('refuses a registered example with a plain secret (without repeating it) or one its schema refuses, and derives one from the secret fields', async () => {
    const service = await start();
    const operator = as(actors.acmeOperator, { companyId: 'acme' });
    const base = {
      providerId: 'acme-kb',
      description: 'Acme knowledge base',
      configSchema: z.strictObject({ token: secretReferenceSchema, shelf: z.string().optional() }),
      secretFields: ['token'],
      create: () => createMemoryAdapter(),
    };
    const plain = service.providers.register(operator, { ...base, configExample: { token: 'kb-plain-secret-value' } });
    await expect(plain).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', issues: [{ path: 'configExample.token' }] });
    await expect(plain).rejects.not.toThrow('kb-plain-secret-value');
    await expect(service.providers.register(operator, { ...base, configExample: { token: { $secret: { env: 'KB' } }, shelf: 3 } })).rejects.toMatchObject({
      issues: [{ path: 'configExample.shelf' }],
    });
    // A token-shaped value under a key the definition does not declare a secret: the service's own scan.
    const shaped = service.providers.register(operator, { ...base, configExample: { token: { $secret: { env: 'KB' } }, shelf: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' } });
    await expect(shaped).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', issues: [{ path: 'configExample.shelf' }] });
    await expect(shaped).rejects.not.toThrow('ghp_0123456789');
    expect(service.providers.describe('acme-kb')).toBeUndefined();

    await service.providers.register(operator, base);
    expect(service.providers.describe('acme-kb')).toMatchObject({
      origin: 'registered',
      configExample: { token: { $secret: { env: 'ACME_KB_TOKEN' } } },
      configSchema: { properties: { token: { oneOf: expect.any(Array) }, shelf: { type: 'string' } }, required: ['token'] },
    });
  });

  it('answers the control plane of operators and company members, never agents or another company', async () => {
    const service = await start({ providers: [mem0Provider] });
    await expect(service.control(as(actors.acmeAdmin)).describeProvider('memory')).resolves.toMatchObject({ providerId: 'memory', configExample: { timeoutMs: 30_000 } });
    await expect(service.control(as(actors.acmeOperator, { companyId: 'acme' })).describeProvider('mem0')).resolves.toMatchObject({ secretFields: ['apiKey', 'cursorSecret'] });
    await expect(service.control(as(actors.planner)).describeProvider('memory')).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    await expect(service.control(as(actors.globexAdmin, { companyId: 'acme' })).describeProvider('memory')).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    await expect(service.control(as(actors.acmeAdmin)).describeProvider('nope')).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    await expect(service.control(as(actors.acmeAdmin)).describeProvider('' as string)).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
  });
});
