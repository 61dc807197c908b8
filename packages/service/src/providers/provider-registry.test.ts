import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provider as mem0Provider } from '@memplane/mem0/provider';
import { createMemoryAdapter, memoryAdapterCapabilities } from '@memplane/memory';
import { provider as memoryProvider } from '@memplane/memory/provider';
import { secretReferenceSchema, type MemoryProviderBuildContext, type MemoryProviderDefinition } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService, deterministicSettings } from '../test-support/service-test-support';
import { createProviderRegistry } from './provider-registry';

/** A provider the service has never heard of, keeping files in a folder named by `folder`. */
function notebookProvider(built: Array<{ config: Record<string, unknown>; context: MemoryProviderBuildContext }> = []): MemoryProviderDefinition {
  return {
    providerId: 'notebook',
    description: 'Keeps notes in a folder (test only).',
    configSchema: z.strictObject({ folder: z.string().optional(), shelf: z.string().optional() }),
    localRootField: 'folder',
    capabilities: memoryAdapterCapabilities,
    create: (config, context) => {
      built.push({ config, context });
      return createMemoryAdapter();
    },
  };
}

/** A hosted provider the service has never heard of, with its own official endpoint and a required key. */
function acmeProvider(seen: Array<Record<string, unknown>> = []): MemoryProviderDefinition {
  return {
    providerId: 'acme-kb',
    description: 'Acme knowledge base (test only).',
    configSchema: z.strictObject({ token: secretReferenceSchema.optional(), endpoint: z.url().optional(), shelf: z.string().optional() }),
    secretFields: ['token'],
    requiredFields: ['token'],
    destination: { field: 'endpoint', officialEndpoints: ['https://kb.acme.example/api'], defaultEndpoint: () => 'https://kb.acme.example/api/v2', passDefault: true },
    capabilities: memoryAdapterCapabilities,
    create: (config) => {
      seen.push(config);
      return createMemoryAdapter();
    },
  };
}

describe('provider registry', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: Parameters<typeof createTestService>[0]): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('starts empty: the service knows no provider, and refuses a binding to one it was not given', async () => {
    expect(createProviderRegistry().list()).toEqual([]);
    const bare = await createMemoryService(deterministicSettings());
    cleanUp = () => bare.close();
    expect(bare.providers.list()).toEqual([]);
    await expect(bare.control(as(actors.acmeAdmin)).createBinding({ key: 'default', providerId: 'markdown' })).rejects.toMatchObject({
      code: 'MEMORY_VALIDATION',
      field: 'providerId',
      message: expect.stringContaining('the host registered no provider'),
    });
  });

  it('lists the configured providers and those registered since, each with its origin', async () => {
    const service = await start({ providers: [mem0Provider] });
    await service.providers.register(as(actors.acmeOperator, { companyId: 'acme' }), acmeProvider());
    expect(service.providers.list()).toEqual([
      { providerId: 'acme-kb', origin: 'registered', description: 'Acme knowledge base (test only).' },
      { providerId: 'markdown', origin: 'configured', description: expect.stringContaining('@memplane/markdown') },
      { providerId: 'mem0', origin: 'configured', description: expect.stringContaining('@memplane/mem0') },
      { providerId: 'memory', origin: 'configured', description: expect.stringContaining('@memplane/memory') },
    ]);
  });

  it('refuses a bad definition in the settings before opening anything, naming its field', async () => {
    await expect(createMemoryService({ providers: [{ ...memoryProvider, providerId: 'Bad Id' }] })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', field: 'providerId' });
    await expect(createMemoryService({ providers: [memoryProvider, memoryProvider] })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
  });

  it('builds a hosted provider from its description: its manifest, its secrets resolved, its default endpoint passed', async () => {
    const settingsSeen: unknown[] = [];
    const mem0 = { ...mem0Provider, create: (settings: Record<string, unknown>) => (settingsSeen.push(settings), createMemoryAdapter()) };
    const service = await start({ providers: [mem0], environment: { MEM0_API_KEY: 'm0-test-key' }, secretEnvironment: { acme: ['MEM0_API_KEY'] } });
    const binding = await bindCompanyDefault(service, actors.acmeAdmin, 'mem0-prod', 'mem0', { config: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } } });
    expect(binding.capabilities).toEqual(mem0Provider.capabilities);
    expect(settingsSeen).toEqual([]);
    await service.runtime(as(actors.planner)).list();
    await service.runtime(as(actors.planner)).list();
    // The official endpoint is passed explicitly, so the adapter never falls back to the host's environment.
    expect(settingsSeen).toEqual([{ apiKey: 'm0-test-key', baseURL: 'https://api.mem0.ai' }]);
  });

  it('holds a provider it has never heard of to what its description declares: required fields, its official endpoints, the operator’s list', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const environment = { ACME_TOKEN: 'acme-kb-token' };
    const service = await start({ providers: [acmeProvider(seen)], environment, secretEnvironment: { acme: ['ACME_TOKEN'] } });
    const admin = service.control(as(actors.acmeAdmin));
    const token = { $secret: { env: 'ACME_TOKEN' } };
    await expect(admin.createBinding({ key: 'a', providerId: 'acme-kb', config: {} })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', field: 'config.token' });
    await expect(admin.createBinding({ key: 'b', providerId: 'acme-kb', config: { token, endpoint: 'https://kb.evil.example/api' } })).rejects.toMatchObject({
      rule: 'destination',
      field: 'config.endpoint',
    });
    // A URL under any other key is held to the same list.
    await expect(admin.createBinding({ key: 'c', providerId: 'acme-kb', config: { token, shelf: 'https://kb.evil.example/api' } })).rejects.toMatchObject({
      rule: 'destination',
      field: 'config.shelf',
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'kb', 'acme-kb', { config: { token } });
    await bindCompanyDefault(service, actors.acmeAdmin, 'kb-v1', 'acme-kb', { config: { token, endpoint: 'https://kb.acme.example/api/v1' } });
    await service.runtime(as(actors.planner)).list({ bindingKey: 'kb' });
    await service.runtime(as(actors.planner)).list({ bindingKey: 'kb-v1' });
    expect(seen).toEqual([
      { token: 'acme-kb-token', endpoint: 'https://kb.acme.example/api/v2' },
      { token: 'acme-kb-token', endpoint: 'https://kb.acme.example/api/v1' },
    ]);

    // The operator's entry replaces the description's official endpoints.
    const proxied = await createMemoryService({
      ...deterministicSettings(),
      providers: [acmeProvider()],
      environment,
      secretEnvironment: { acme: ['ACME_TOKEN'] },
      destinations: { endpoints: { 'acme-kb': ['https://kb-proxy.example.com'] } },
    });
    const previous = cleanUp;
    cleanUp = async () => {
      await proxied.close();
      await previous?.();
    };
    const proxiedAdmin = proxied.control(as(actors.acmeAdmin));
    await expect(proxiedAdmin.createBinding({ key: 'kb', providerId: 'acme-kb', config: { token } })).rejects.toMatchObject({ rule: 'destination', field: 'config.endpoint' });
    await expect(proxiedAdmin.createBinding({ key: 'kb', providerId: 'acme-kb', config: { token, endpoint: 'https://kb-proxy.example.com/acme' } })).resolves.toMatchObject({ key: 'kb' });
  });

  it('allows a provider registered later its own official endpoints, and no other provider’s', async () => {
    const service = await start({ providers: [mem0Provider], environment: { ACME_TOKEN: 'acme-kb-token-value', MEM0_API_KEY: 'mem0-key-value' }, secretEnvironment: { acme: ['ACME_TOKEN', 'MEM0_API_KEY'] } });
    const admin = service.control(as(actors.acmeAdmin));
    await expect(admin.createBinding({ key: 'kb', providerId: 'acme-kb', config: { token: { $secret: { env: 'ACME_TOKEN' } } } })).rejects.toMatchObject({ field: 'providerId' });
    await service.providers.register(as(actors.acmeOperator, { companyId: 'acme' }), acmeProvider());
    await expect(admin.createBinding({ key: 'kb', providerId: 'acme-kb', config: { token: { $secret: { env: 'ACME_TOKEN' } } } })).resolves.toMatchObject({ key: 'kb' });
    await expect(admin.createBinding({ key: 'm0', providerId: 'mem0', config: { apiKey: { $secret: { env: 'MEM0_API_KEY' } }, baseURL: 'https://kb.acme.example/api' } })).rejects.toMatchObject({
      rule: 'destination',
      field: 'config.baseURL',
    });
  });

  it('lets operators register providers, and refuses duplicates and malformed definitions', async () => {
    const service = await start({});
    const operator = as(actors.acmeOperator, { companyId: 'acme' });
    const plugin = { providerId: 'acme-kb', description: 'Acme knowledge base', create: () => createMemoryAdapter() };
    await service.providers.register(operator, plugin);
    expect(service.providers.list()).toContainEqual({ providerId: 'acme-kb', description: 'Acme knowledge base', origin: 'registered' });
    await expect(service.providers.register(operator, plugin)).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    await service.providers.register(operator, plugin, { replace: true });
    await expect(service.providers.register(operator, { ...plugin, providerId: 'Bad Id' })).rejects.toMatchObject({ field: 'providerId' });
    await expect(service.providers.register(operator, { ...plugin, loadCapabilities: async () => undefined } as MemoryProviderDefinition)).rejects.toMatchObject({
      field: 'loadCapabilities',
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'kb', 'acme-kb');
    await expect(service.runtime(as(actors.planner)).list()).resolves.toMatchObject({ providerId: 'acme-kb' });
  });

  it('confines the local root of any provider that declares one to the company folder, defaulting to the binding folder', async () => {
    const built: Array<{ config: Record<string, unknown>; context: MemoryProviderBuildContext }> = [];
    const service = await start({ providers: [notebookProvider(built)] });
    const admin = service.control(as(actors.acmeAdmin));
    await expect(admin.createBinding({ key: 'escape', providerId: 'notebook', config: { folder: '../globex' } })).rejects.toMatchObject({
      rule: 'local.root',
      field: 'config.folder',
    });
    await expect(admin.createBinding({ key: 'absolute', providerId: 'notebook', config: { folder: tmpdir() } })).rejects.toMatchObject({ rule: 'local.root' });
    const inside = await bindCompanyDefault(service, actors.acmeAdmin, 'inside', 'notebook', { config: { folder: 'shared/acme', shelf: 'a' } });
    await service.runtime(as(actors.planner)).list();
    await bindCompanyDefault(service, actors.acmeAdmin, 'own', 'notebook');
    await service.runtime(as(actors.planner)).list();
    const [first, second] = built;
    expect(first?.config).toEqual({ folder: join(first!.context.companyDirectory!, 'shared', 'acme'), shelf: 'a' });
    expect(first?.context.companyDirectory).toMatch(/notebook[/\\]acme$/);
    expect(first?.context.bindingDirectory).toBe(join(first!.context.companyDirectory!, inside.id));
    // Without a folder, the binding's own.
    expect(second?.config).toEqual({ folder: second!.context.bindingDirectory });
  });

  it('refuses a markdown root outside the company folder, and a local provider’s binding without a data directory', async () => {
    const service = await start({});
    const admin = service.control(as(actors.acmeAdmin));
    await expect(admin.createBinding({ key: 'escape', providerId: 'markdown', config: { root: '../elsewhere' } })).rejects.toMatchObject({ field: 'config.root', rule: 'local.root' });
    await expect(admin.createBinding({ key: 'inside', providerId: 'markdown', config: { root: 'shared/acme' } })).resolves.toMatchObject({ key: 'inside' });
    const { service: bare, cleanUp: closeBare } = await createTestService({ dataDirectory: undefined });
    await expect(bare.control(as(actors.acmeAdmin)).createBinding({ key: 'md', providerId: 'markdown', config: { root: '/srv/memory/anywhere' } })).rejects.toMatchObject({
      field: 'config.root',
      rule: 'local.root',
      message: expect.stringContaining("needs the service's dataDirectory"),
    });
    await expect(bare.control(as(actors.acmeAdmin)).createBinding({ key: 'md', providerId: 'markdown' })).rejects.toMatchObject({ field: 'config.root', rule: 'local.root' });
    await closeBare();
  });

  it('refuses a local root reached through a symbolic link out of the company folder, at every build', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-local-root-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'memplane-elsewhere-'));
    const service = await createMemoryService({ ...deterministicSettings(), dataDirectory, providers: [notebookProvider()] });
    cleanUp = async () => {
      await service.close();
      rmSync(dataDirectory, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    };
    const companyFolder = join(dataDirectory, 'notebook', 'acme');
    mkdirSync(companyFolder, { recursive: true });
    symlinkSync(elsewhere, join(companyFolder, 'linked'));
    const admin = service.control(as(actors.acmeAdmin));
    await expect(admin.createBinding({ key: 'linked', providerId: 'notebook', config: { folder: 'linked/notes' } })).rejects.toMatchObject({ rule: 'local.root', field: 'config.folder' });
    await bindCompanyDefault(service, actors.acmeAdmin, 'notes', 'notebook', { config: { folder: 'notes' } });
    symlinkSync(elsewhere, join(companyFolder, 'notes'));
    await expect(service.runtime(as(actors.planner)).list()).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', field: 'config.folder' });
  });
});
