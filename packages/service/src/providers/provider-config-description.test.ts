import { createMemoryAdapter } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, createTestService } from '../test-support/service-test-support';
import { builtInProviderFactories } from './built-in-providers';
import { hostedProviderPackages } from './hosted-providers';
import { configExampleIssues } from './provider-config-description';
import { createProviderRegistry } from './provider-registry';
import { secretReferenceSchema } from '@memplane/core';

describe('provider config descriptions', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: Parameters<typeof createTestService>[0] = {}): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('converts a config schema to JSON Schema, a secret field to a $secret reference', () => {
    const markdown = createProviderRegistry().describe('markdown');
    expect(markdown).toMatchObject({ providerId: 'markdown', origin: 'built-in', secretFields: ['cursorSecret'], configExample: { fusion: 'rrf' } });
    expect(markdown?.configSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        sectionsPerFile: { type: 'integer', minimum: 1, maximum: 100_000 },
        lexicalWeights: { type: 'object', properties: { body: { type: 'number', minimum: 0 } } },
        cursorSecret: {
          oneOf: [
            { properties: { $secret: { required: ['env'] } }, required: ['$secret'] },
            { properties: { $secret: { required: ['key'] } }, required: ['$secret'] },
          ],
        },
      },
    });
    expect(createProviderRegistry().describe('nope')).toBeUndefined();
  });

  it('gives every built-in and hosted provider an example that passes its own checks and holds only references', () => {
    for (const factory of builtInProviderFactories) expect(configExampleIssues(factory), factory.providerId).toEqual([]);
    const registry = createProviderRegistry();
    for (const hosted of hostedProviderPackages) {
      const description = registry.describe(hosted.providerId);
      expect(description?.configSchema).toMatchObject({ type: 'object', additionalProperties: true });
      for (const field of hosted.requiredFields) expect(JSON.stringify(description?.configExample[field]), hosted.providerId).toContain('$secret');
    }
  });

  it('hands out copies: changing a description changes nothing the next caller sees', () => {
    const registry = createProviderRegistry();
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
    await expect(plain).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', issues: [{ path: 'factory.configExample.token' }] });
    await expect(plain).rejects.not.toThrow('kb-plain-secret-value');
    await expect(service.providers.register(operator, { ...base, configExample: { token: { $secret: { env: 'KB' } }, shelf: 3 } })).rejects.toMatchObject({
      issues: [{ path: 'factory.configExample.shelf' }],
    });
    expect(service.providers.describe('acme-kb')).toBeUndefined();

    await service.providers.register(operator, base);
    expect(service.providers.describe('acme-kb')).toMatchObject({
      origin: 'registered',
      configExample: { token: { $secret: { env: 'ACME_KB_TOKEN' } } },
      configSchema: { properties: { token: { oneOf: expect.any(Array) }, shelf: { type: 'string' } }, required: ['token'] },
    });
  });

  it('answers the control plane of operators and company members, never agents or another company', async () => {
    const service = await start();
    await expect(service.control(as(actors.acmeAdmin)).describeProvider('memory')).resolves.toMatchObject({ providerId: 'memory', configExample: { timeoutMs: 30_000 } });
    await expect(service.control(as(actors.acmeOperator, { companyId: 'acme' })).describeProvider('mem0')).resolves.toMatchObject({ secretFields: ['apiKey'] });
    await expect(service.control(as(actors.planner)).describeProvider('memory')).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    await expect(service.control(as(actors.globexAdmin, { companyId: 'acme' })).describeProvider('memory')).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    await expect(service.control(as(actors.acmeAdmin)).describeProvider('nope')).rejects.toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    await expect(service.control(as(actors.acmeAdmin)).describeProvider('' as string)).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
  });
});
