import { MemoryConfigurationError, MemoryValidationError, type MemoryAdapter, type MemoryAdapterCapabilities } from '@memplane/core';
import { officialProviderEndpoints } from '../security/provider-destinations';
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
  /**
   * Config fields that must be set (as secret references), because the adapter would otherwise
   * fall back to the host's own environment (`MEM0_API_KEY`, the AWS default credential chain).
   */
  requiredFields: readonly string[];
  /** The config field that says where requests go: `baseURL` (mem0, Supermemory) or `endpoint` (AgentCore). */
  destinationField: 'baseURL' | 'endpoint';
  /**
   * Where requests go when the field is not set, or undefined when that cannot be known from
   * the config (then the binding is refused: the service checks every destination).
   */
  defaultDestination(config: Record<string, unknown>): string | undefined;
  /** Whether the default destination is written into the settings the adapter gets, so the adapter's own environment fallbacks never apply. */
  passDefaultDestination: boolean;
  /** One line about it. */
  description: string;
  /** An example config for operators, every secret a reference to an environment variable. */
  configExample: Record<string, unknown>;
}

const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** The AgentCore endpoint of a region, as the AWS SDK's endpoint rules build it. */
function agentCoreEndpointOf(config: Record<string, unknown>): string | undefined {
  const region = config.region;
  if (typeof region !== 'string' || !regionPattern.test(region)) return undefined;
  return `https://bedrock-agentcore.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;
}

/** The hosted adapters the service knows by provider id. */
export const hostedProviderPackages: readonly HostedProviderPackage[] = [
  {
    providerId: 'mem0',
    packageName: '@memplane/mem0',
    factoryExport: 'createMem0Adapter',
    capabilitiesExport: 'mem0Capabilities',
    secretFields: ['apiKey'],
    requiredFields: ['apiKey'],
    destinationField: 'baseURL',
    defaultDestination: () => officialProviderEndpoints.mem0![0],
    passDefaultDestination: true,
    description: 'mem0 Platform (@memplane/mem0, installed separately).',
    configExample: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } },
  },
  {
    providerId: 'supermemory',
    packageName: '@memplane/supermemory',
    factoryExport: 'createSupermemoryAdapter',
    capabilitiesExport: 'supermemoryCapabilities',
    secretFields: ['apiKey'],
    requiredFields: ['apiKey'],
    destinationField: 'baseURL',
    // Passed explicitly: the adapter would otherwise read SUPERMEMORY_BASE_URL from the host.
    defaultDestination: () => officialProviderEndpoints.supermemory![0],
    passDefaultDestination: true,
    description: 'Supermemory (@memplane/supermemory, installed separately).',
    configExample: { apiKey: { $secret: { env: 'SUPERMEMORY_API_KEY' } } },
  },
  {
    providerId: 'agentcore',
    packageName: '@memplane/agentcore',
    factoryExport: 'createAgentCoreAdapter',
    capabilitiesExport: 'agentCoreCapabilities',
    secretFields: ['credentials.accessKeyId', 'credentials.secretAccessKey', 'credentials.sessionToken'],
    requiredFields: ['credentials'],
    destinationField: 'endpoint',
    // Without `endpoint` the SDK derives it from `region`; without either it would read AWS_REGION.
    defaultDestination: agentCoreEndpointOf,
    passDefaultDestination: false,
    description: 'AWS Bedrock AgentCore Memory (@memplane/agentcore, installed separately).',
    configExample: {
      memoryId: 'memplaneMemory-a1b2c3d4e5',
      region: 'us-east-1',
      credentials: { accessKeyId: { $secret: { env: 'AWS_ACCESS_KEY_ID' } }, secretAccessKey: { $secret: { env: 'AWS_SECRET_ACCESS_KEY' } } },
    },
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
 * Checks a hosted binding config: every required field is set (the adapter never falls back to
 * the host's environment), and the destination (the configured one, else the default) is on the
 * operator's allow-list.
 */
function checkHostedConfig(hosted: HostedProviderPackage, config: Record<string, unknown>, checkDestination: (field: string, url: unknown) => void): void {
  const missing = hosted.requiredFields.filter((field) => config[field] === undefined || config[field] === null);
  if (missing.length > 0) {
    throw new MemoryValidationError({
      target: 'binding config',
      issues: missing.map((field) => ({
        path: `config.${field}`,
        message: "is required, as a secret reference: the service never lets an adapter fall back to the host's own credentials",
      })),
    });
  }
  const field = `config.${hosted.destinationField}`;
  const configured = config[hosted.destinationField];
  if (configured !== undefined) {
    checkDestination(field, configured);
    return;
  }
  const fallback = hosted.defaultDestination(config);
  if (fallback === undefined) {
    throw new MemoryValidationError({
      target: 'binding config',
      issues: [{ path: 'config.region', message: `is required (or ${field}), so the service can check where requests go` }],
    });
  }
  checkDestination(field, fallback);
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
    configExample: hosted.configExample,
    async loadCapabilities() {
      return (await load()).capabilities;
    },
    checkConfig(config, context) {
      checkHostedConfig(hosted, config, context.checkDestination);
    },
    async create(config) {
      const loaded = await load();
      const destination = config[hosted.destinationField] ?? (hosted.passDefaultDestination ? hosted.defaultDestination(config) : undefined);
      return loaded.create(destination === undefined ? config : { ...config, [hosted.destinationField]: destination });
    },
  };
}
