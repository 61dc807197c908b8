import { createMemoryAdapter, memoryAdapterCapabilities } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createProviderRegistry } from './provider-registry';

describe('provider registry', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(settings: Parameters<typeof createTestService>[0]): Promise<MemoryService> {
    const created = await createTestService(settings);
    cleanUp = created.cleanUp;
    return created.service;
  }

  it('knows the built-ins and the hosted adapters by provider id', () => {
    expect(createProviderRegistry().list()).toEqual([
      { providerId: 'agentcore', origin: 'hosted', description: expect.stringContaining('@memplane/agentcore') },
      { providerId: 'markdown', origin: 'built-in', description: expect.any(String) },
      { providerId: 'mem0', origin: 'hosted', description: expect.stringContaining('@memplane/mem0') },
      { providerId: 'memory', origin: 'built-in', description: expect.any(String) },
      { providerId: 'supermemory', origin: 'hosted', description: expect.stringContaining('@memplane/supermemory') },
    ]);
  });

  it('loads a hosted adapter package on first use, with its secrets resolved and its manifest', async () => {
    const loaded: string[] = [];
    const settingsSeen: unknown[] = [];
    const service = await start({
      environment: { MEM0_API_KEY: 'm0-test-key' },
      secretEnvironment: { acme: ['MEM0_API_KEY'] },
      loadProviderModule: async (packageName) => {
        loaded.push(packageName);
        return {
          mem0Capabilities: { correction: true, asyncExtraction: true },
          createMem0Adapter: (settings: Record<string, unknown>) => {
            settingsSeen.push(settings);
            return createMemoryAdapter();
          },
        };
      },
    });
    const binding = await bindCompanyDefault(service, actors.acmeAdmin, 'mem0-prod', 'mem0', {
      config: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } },
    });
    expect(binding.capabilities).toEqual({ correction: true, asyncExtraction: true });
    expect(settingsSeen).toEqual([]);
    await service.runtime(as(actors.planner)).list();
    await service.runtime(as(actors.planner)).list();
    expect(loaded).toEqual(['@memplane/mem0']);
    // The official endpoint is passed explicitly, so the adapter never falls back to the host's environment.
    expect(settingsSeen).toEqual([{ apiKey: 'm0-test-key', baseURL: 'https://api.mem0.ai' }]);
  });

  it('says what to install when a hosted package is missing, and tries again later', async () => {
    let installed = false;
    const service = await start({
      environment: { X: 'x-value' },
      secretEnvironment: { acme: ['X'] },
      loadProviderModule: async (packageName) => {
        if (!installed) throw new TypeError(`Cannot find package '${packageName}'`);
        return { createSupermemoryAdapter: () => createMemoryAdapter() };
      },
    });
    const admin = service.control(as(actors.acmeAdmin));
    await expect(admin.createBinding({ key: 'sm', providerId: 'supermemory', config: { apiKey: { $secret: { env: 'X' } } } })).rejects.toThrow(
      'Provider "supermemory" needs @memplane/supermemory: run `npm install @memplane/supermemory`.',
    );
    installed = true;
    await expect(admin.createBinding({ key: 'sm', providerId: 'supermemory', config: { apiKey: { $secret: { env: 'X' } } } })).resolves.toMatchObject({
      capabilities: memoryAdapterCapabilities,
    });
  });

  it('lets operators register providers, and refuses duplicates and malformed factories', async () => {
    const service = await start({});
    const operator = as(actors.acmeOperator, { companyId: 'acme' });
    const plugin = { providerId: 'acme-kb', description: 'Acme knowledge base', create: () => createMemoryAdapter() };
    await service.providers.register(operator, plugin);
    expect(service.providers.list()).toContainEqual({ providerId: 'acme-kb', description: 'Acme knowledge base', origin: 'registered' });
    await expect(service.providers.register(operator, plugin)).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    await service.providers.register(operator, plugin, { replace: true });
    await expect(service.providers.register(operator, { ...plugin, providerId: 'Bad Id' })).rejects.toMatchObject({ field: 'factory.providerId' });
    await bindCompanyDefault(service, actors.acmeAdmin, 'kb', 'acme-kb');
    await expect(service.runtime(as(actors.planner)).list()).resolves.toMatchObject({ providerId: 'acme-kb' });
  });

  it('refuses a markdown root outside the company folder, and any markdown binding without a data directory', async () => {
    const service = await start({});
    const admin = service.control(as(actors.acmeAdmin));
    await expect(admin.createBinding({ key: 'escape', providerId: 'markdown', config: { root: '../elsewhere' } })).rejects.toMatchObject({ field: 'config.root' });
    await expect(admin.createBinding({ key: 'inside', providerId: 'markdown', config: { root: 'shared/acme' } })).resolves.toMatchObject({ key: 'inside' });
    const { service: bare, cleanUp: closeBare } = await createTestService({ dataDirectory: undefined });
    await expect(bare.control(as(actors.acmeAdmin)).createBinding({ key: 'md', providerId: 'markdown', config: { root: '/srv/memory/anywhere' } })).rejects.toMatchObject({
      field: 'config.root',
      rule: 'markdown.root',
      message: expect.stringContaining("needs the service's dataDirectory"),
    });
    await closeBare();
  });
});
