import { provider as markdownProvider } from '@memplane/markdown/provider';
import { createMemoryService, MemoryMissingPackageError } from '@memplane/service';
import { describe, expect, it } from 'vitest';
import { loadPluginProviders, pluginProviderPackages } from './plugin-providers';

describe('the providers of the worker', () => {
  it('offers each provider package installed next to the plugin, and refuses a binding of one that is missing or broken, saying why', async () => {
    const definitions = await loadPluginProviders({
      load: async (specifier) => {
        if (specifier === '@memplane/markdown/provider') return { provider: markdownProvider };
        if (specifier === '@memplane/agentcore/provider') throw Object.assign(new Error("Cannot find package '@aws-sdk/client-bedrock-agentcore'"), { code: 'ERR_MODULE_NOT_FOUND' });
        const packageName = specifier.replace(/\/provider$/, '');
        throw Object.assign(new Error(`Cannot find package '${packageName}' imported from /srv/plugin/worker.js`), { code: 'ERR_MODULE_NOT_FOUND' });
      },
    });
    expect(definitions.map((definition) => definition.providerId)).toEqual(Object.keys(pluginProviderPackages));
    expect(definitions[0]).toMatchObject({ providerId: 'markdown', packageName: '@memplane/markdown', create: markdownProvider.create });

    const service = await createMemoryService({ providers: definitions });
    try {
      const admin = service.control({ actor: { kind: 'company', companyId: 'acme', userId: 'admin' } });
      const missing = await admin.createBinding({ key: 'm0', providerId: 'mem0' }).then(() => undefined, (error: unknown) => error);
      expect(MemoryMissingPackageError.isInstance(missing)).toBe(true);
      expect(missing).toMatchObject({ packageName: '@memplane/mem0', message: expect.stringContaining('npm install @memplane/mem0') });
      // A package that is there but cannot load (its SDK is missing) is not reported as missing itself.
      const broken = await admin.createBinding({ key: 'ac', providerId: 'agentcore' }).then(() => undefined, (error: unknown) => error);
      expect(broken).toMatchObject({ code: 'MEMORY_CONFIGURATION' });
      expect(MemoryMissingPackageError.isInstance(broken)).toBe(false);
      expect(await admin.listBindings()).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
