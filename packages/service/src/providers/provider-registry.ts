import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { builtInProviderFactories } from './built-in-providers';
import { createHostedProviderFactory, hostedProviderPackages, type ProviderModuleLoader } from './hosted-providers';
import type { MemoryProviderConfigDescription, MemoryProviderDescription, MemoryProviderFactory, MemoryProviderOrigin } from './memory-provider-factory';
import { configExampleIssues, describeProviderConfig } from './provider-config-description';

const providerIdPattern = /^[a-z][a-z0-9-]{0,63}$/;

/** The provider registry of one service: factories by provider id. */
export interface MemoryProviderRegistry {
  /**
   * Registers a factory (a plugin, or a host's own build of a built-in). Registering an id
   * that exists throws `MemoryConfigurationError` unless `replace` is true; existing bindings
   * pick the new factory up the next time their adapter is built.
   */
  register(factory: MemoryProviderFactory, options?: { replace?: boolean }): void;
  /** Throws what `register` would throw, registering nothing. */
  validate(factory: MemoryProviderFactory, options?: { replace?: boolean }): void;
  /** The factory of a provider id, or undefined. */
  get(providerId: string): MemoryProviderFactory | undefined;
  /** The factory of a provider id, or `MemoryValidationError` naming `providerId`. */
  require(providerId: string): MemoryProviderFactory;
  /** Every provider, sorted by id. */
  list(): MemoryProviderDescription[];
  /** A provider with its config's JSON Schema, an example and its secret fields, or undefined. */
  describe(providerId: string): MemoryProviderConfigDescription | undefined;
}

/** Creates a registry holding the built-ins and the hosted adapters (loaded on first use). */
export function createProviderRegistry(loadModule?: ProviderModuleLoader): MemoryProviderRegistry {
  const entries = new Map<string, { factory: MemoryProviderFactory; origin: MemoryProviderOrigin }>();
  for (const factory of builtInProviderFactories) entries.set(factory.providerId, { factory, origin: 'built-in' });
  for (const hosted of hostedProviderPackages) {
    entries.set(hosted.providerId, { factory: createHostedProviderFactory(hosted, loadModule), origin: 'hosted' });
  }

  function validate(factory: MemoryProviderFactory, options: { replace?: boolean } = {}): void {
    if (typeof factory !== 'object' || factory === null || typeof factory.create !== 'function') {
      throw new MemoryValidationError({ target: 'provider factory', issues: [{ path: 'factory.create', message: 'must be a function' }] });
    }
    if (typeof factory.description !== 'string' || (factory.checkConfig !== undefined && typeof factory.checkConfig !== 'function')) {
      throw new MemoryValidationError({
        target: 'provider factory',
        issues: [{ path: typeof factory.description !== 'string' ? 'factory.description' : 'factory.checkConfig', message: typeof factory.description !== 'string' ? 'must be a string' : 'must be a function' }],
      });
    }
    if (typeof factory.providerId !== 'string' || !providerIdPattern.test(factory.providerId)) {
      throw new MemoryValidationError({
        target: 'provider factory',
        issues: [{ path: 'factory.providerId', message: 'must be 1 to 64 of a-z, 0-9 and -, starting with a letter' }],
      });
    }
    const exampleIssues = configExampleIssues(factory);
    if (exampleIssues.length > 0) throw new MemoryValidationError({ target: 'provider factory', issues: exampleIssues });
    if (entries.has(factory.providerId) && options.replace !== true) {
      throw new MemoryConfigurationError({
        message: `Provider "${factory.providerId}" is already registered; pass { replace: true } to replace it.`,
      });
    }
  }
  return {
    validate,
    register(factory, options = {}) {
      validate(factory, options);
      entries.set(factory.providerId, { factory, origin: 'registered' });
    },
    get: (providerId) => entries.get(providerId)?.factory,
    require(providerId) {
      const entry = entries.get(providerId);
      if (entry === undefined) {
        throw new MemoryValidationError({
          target: 'binding',
          issues: [{ path: 'providerId', message: `unknown provider "${providerId}"; known: ${[...entries.keys()].sort().join(', ')}` }],
        });
      }
      return entry.factory;
    },
    list: () =>
      [...entries.values()]
        .map(({ factory, origin }) => ({ providerId: factory.providerId, description: factory.description, origin }))
        .sort((left, right) => left.providerId.localeCompare(right.providerId)),
    describe(providerId) {
      const entry = entries.get(providerId);
      if (entry === undefined) return undefined;
      const { factory, origin } = entry;
      return { providerId: factory.providerId, description: factory.description, origin, ...describeProviderConfig(factory) };
    },
  };
}
