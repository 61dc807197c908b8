import { defineMemoryProvider, MemoryConfigurationError, MemoryValidationError, type MemoryProviderDefinition } from '@memplane/core';
import type { MemoryProviderConfigDescription, MemoryProviderDescription, MemoryProviderOrigin } from './memory-provider-description';
import { configExampleIssues, describeProviderConfig } from './provider-config-description';

/** The provider registry of one service: definitions by provider id. It starts empty. */
export interface MemoryProviderRegistry {
  /**
   * Checks a definition and registers its frozen copy (`defineMemoryProvider`), under `origin`.
   * Registering an id that exists throws `MemoryConfigurationError` unless `replace` is true;
   * existing bindings pick the new definition up the next time their adapter is built.
   */
  register(definition: MemoryProviderDefinition, options?: { replace?: boolean; origin?: MemoryProviderOrigin }): void;
  /** Throws what `register` would throw, registering nothing; returns the checked copy. */
  validate(definition: MemoryProviderDefinition, options?: { replace?: boolean }): MemoryProviderDefinition;
  /** The definition of a provider id, or undefined. */
  get(providerId: string): MemoryProviderDefinition | undefined;
  /** The definition of a provider id, or `MemoryValidationError` naming `providerId`. */
  require(providerId: string): MemoryProviderDefinition;
  /** Every provider, sorted by id. */
  list(): MemoryProviderDescription[];
  /** A provider with its config's JSON Schema, an example and its secret fields, or undefined. */
  describe(providerId: string): MemoryProviderConfigDescription | undefined;
  /** The official endpoints a provider's description declares, the default of its destination allow-list. */
  officialEndpoints(providerId: string): readonly string[] | undefined;
}

/** Creates an empty registry. */
export function createProviderRegistry(): MemoryProviderRegistry {
  const entries = new Map<string, { definition: MemoryProviderDefinition; origin: MemoryProviderOrigin }>();

  function validate(definition: MemoryProviderDefinition, options: { replace?: boolean } = {}): MemoryProviderDefinition {
    if (typeof definition !== 'object' || definition === null) {
      throw new MemoryValidationError({ target: 'provider definition', issues: [{ path: 'definition', message: 'must be a provider definition (an object made with defineMemoryProvider)' }] });
    }
    // Core's check of the shape and of the fields against the schema, then the service's own
    // credential scan of the example, which also catches a token under an undeclared key.
    const checked = defineMemoryProvider(definition);
    const exampleIssues = configExampleIssues(checked);
    if (exampleIssues.length > 0) throw new MemoryValidationError({ target: 'provider definition', issues: exampleIssues });
    if (entries.has(checked.providerId) && options.replace !== true) {
      throw new MemoryConfigurationError({
        message: `Provider "${checked.providerId}" is already registered; pass { replace: true } to replace it.`,
      });
    }
    return checked;
  }
  return {
    validate,
    register(definition, options = {}) {
      const checked = validate(definition, options);
      entries.set(checked.providerId, { definition: checked, origin: options.origin ?? 'registered' });
    },
    get: (providerId) => entries.get(providerId)?.definition,
    require(providerId) {
      const entry = entries.get(providerId);
      if (entry === undefined) {
        const known = [...entries.keys()].sort().join(', ');
        throw new MemoryValidationError({
          target: 'binding',
          issues: [{ path: 'providerId', message: `unknown provider "${providerId}"; known: ${known === '' ? 'none (the host registered no provider)' : known}` }],
        });
      }
      return entry.definition;
    },
    list: () =>
      [...entries.values()]
        .map(({ definition, origin }) => ({ providerId: definition.providerId, description: definition.description, origin }))
        .sort((left, right) => left.providerId.localeCompare(right.providerId)),
    describe(providerId) {
      const entry = entries.get(providerId);
      if (entry === undefined) return undefined;
      const { definition, origin } = entry;
      return { providerId: definition.providerId, description: definition.description, origin, ...describeProviderConfig(definition) };
    },
    officialEndpoints: (providerId) => entries.get(providerId)?.definition.destination?.officialEndpoints,
  };
}
