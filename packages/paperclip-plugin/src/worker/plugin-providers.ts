import { MemoryError, type MemoryProviderDefinition } from '@memplane/core';
import { loadProviderPackage, MemoryMissingPackageError, type LoadProviderPackageOptions } from '@memplane/service';

/**
 * The provider packages the worker offers, by provider id, each loaded from its `./provider`
 * subpath when it is installed next to the plugin. None is a dependency of the plugin: a worker
 * in http mode needs none, and the one a company binds is installed by the operator.
 */
export const pluginProviderPackages: Readonly<Record<string, string>> = Object.freeze({
  markdown: '@memplane/markdown',
  memory: '@memplane/memory',
  mem0: '@memplane/mem0',
  supermemory: '@memplane/supermemory',
  agentcore: '@memplane/agentcore',
});

/**
 * A stand-in for a provider whose package could not be loaded: a binding of it is refused when
 * it is saved and when its adapter would be built, with the error that says why (for a package
 * that is not installed, `MemoryMissingPackageError` saying what to install; the worker logs
 * it), rather than as an unknown provider, and the other providers keep working.
 */
function unavailable(providerId: string, packageName: string, error: MemoryError): MemoryProviderDefinition {
  const refuse = (): never => {
    throw MemoryMissingPackageError.isInstance(error) ? new MemoryMissingPackageError({ packageName, feature: `Provider "${providerId}"`, cause: error }) : error;
  };
  const why = MemoryMissingPackageError.isInstance(error) ? 'not installed next to the plugin' : 'installed but cannot be loaded';
  return { providerId, packageName, description: `${packageName}, ${why}.`, checkConfig: refuse, create: refuse };
}

/** The definitions of every provider the worker offers: loaded, or a stand-in that says why it cannot be used. */
export async function loadPluginProviders(options: LoadProviderPackageOptions = {}): Promise<MemoryProviderDefinition[]> {
  return Promise.all(
    Object.entries(pluginProviderPackages).map(async ([providerId, packageName]) => {
      try {
        return await loadProviderPackage(packageName, options);
      } catch (error) {
        if (MemoryError.isInstance(error)) return unavailable(providerId, packageName, error);
        throw error;
      }
    }),
  );
}
