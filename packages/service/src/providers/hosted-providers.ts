import { MemoryConfigurationError, type MemoryAdapter, type MemoryAdapterCapabilities } from '@memplane/core';
import type { MemoryProviderFactory } from './memory-provider-factory';

/** Loads a package by name; the default is a dynamic `import()`. Tests and bundlers may pass their own. */
export type ProviderModuleLoader = (packageName: string) => Promise<unknown>;

/** How a hosted adapter package is found when a binding first names its provider id. */
export interface HostedProviderPackage {
  /** The provider id bindings name. */
  providerId: string;
  /** The npm package that holds the adapter. It is an optional install, never a dependency of the service. */
  packageName: string;
  /** The name of its factory export, `create<Provider>Adapter`. */
  factoryExport: string;
  /** The name of its capability manifest export, when it has one. */
  capabilitiesExport?: string;
  /** Dotted config paths that hold secrets. */
  secretFields: readonly string[];
  /** One line about it. */
  description: string;
}

/** The hosted adapters the service knows by provider id. */
export const hostedProviderPackages: readonly HostedProviderPackage[] = [
  {
    providerId: 'mem0',
    packageName: '@memplane/mem0',
    factoryExport: 'createMem0Adapter',
    capabilitiesExport: 'mem0Capabilities',
    secretFields: ['apiKey'],
    description: 'mem0 Platform (@memplane/mem0, installed separately).',
  },
  {
    providerId: 'supermemory',
    packageName: '@memplane/supermemory',
    factoryExport: 'createSupermemoryAdapter',
    capabilitiesExport: 'supermemoryCapabilities',
    secretFields: ['apiKey'],
    description: 'Supermemory (@memplane/supermemory, installed separately).',
  },
  {
    providerId: 'agentcore',
    packageName: '@memplane/agentcore',
    factoryExport: 'createAgentCoreAdapter',
    capabilitiesExport: 'agentCoreCapabilities',
    secretFields: ['credentials.accessKeyId', 'credentials.secretAccessKey', 'credentials.sessionToken'],
    description: 'AWS Bedrock AgentCore Memory (@memplane/agentcore, installed separately).',
  },
];

// A variable specifier keeps bundlers from resolving the optional packages at build time.
export const importProviderModule: ProviderModuleLoader = (packageName) => import(packageName);

type AdapterFactoryFunction = (settings: Record<string, unknown>) => MemoryAdapter | Promise<MemoryAdapter>;

interface LoadedPackage {
  create: AdapterFactoryFunction;
  capabilities: MemoryAdapterCapabilities | undefined;
}

/**
 * A factory that loads the hosted adapter package on first use. When the package is not
 * installed, building a binding of it throws `MemoryConfigurationError` saying what to install.
 */
export function createHostedProviderFactory(
  hosted: HostedProviderPackage,
  loadModule: ProviderModuleLoader = importProviderModule,
): MemoryProviderFactory {
  let loading: Promise<LoadedPackage> | undefined;
  const load = (): Promise<LoadedPackage> => {
    loading ??= loadModule(hosted.packageName).then(
      (module) => {
        const exports = (module ?? {}) as Record<string, unknown>;
        const create = exports[hosted.factoryExport];
        if (typeof create !== 'function') {
          throw new MemoryConfigurationError({
            message: `${hosted.packageName} has no ${hosted.factoryExport} export; is it a memplane adapter package?`,
          });
        }
        const capabilities = hosted.capabilitiesExport === undefined ? undefined : exports[hosted.capabilitiesExport];
        return {
          create: create as AdapterFactoryFunction,
          capabilities: typeof capabilities === 'object' && capabilities !== null ? (capabilities as MemoryAdapterCapabilities) : undefined,
        };
      },
      (cause: unknown) => {
        loading = undefined;
        throw new MemoryConfigurationError({
          message: `Provider "${hosted.providerId}" needs ${hosted.packageName}: run \`npm install ${hosted.packageName}\`.`,
          cause,
        });
      },
    );
    return loading;
  };
  return {
    providerId: hosted.providerId,
    description: hosted.description,
    secretFields: hosted.secretFields,
    async loadCapabilities() {
      return (await load()).capabilities;
    },
    async create(config) {
      const loaded = await load();
      return loaded.create(config);
    },
  };
}
