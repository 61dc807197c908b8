/**
 * Where a provider of a service's registry came from:
 * - `configured`: given in `MemoryServiceSettings.providers` when the service was created, the
 *   host's own configuration (the providers a host loads by package name with
 *   `loadProviderPackage` are configured too);
 * - `registered`: registered later by an operator through `service.providers.register`, which
 *   the activity log records.
 *
 * The service has no providers of its own: every provider is one or the other.
 */
export type MemoryProviderOrigin = 'configured' | 'registered';

/** A provider as `service.providers.list()` describes it. */
export interface MemoryProviderDescription {
  /** The provider id. */
  providerId: string;
  /** One line about it. */
  description: string;
  /** Given in the service's settings, or registered by an operator since. */
  origin: MemoryProviderOrigin;
}

/**
 * What an operator needs to write a binding config for one provider, as
 * `service.providers.describe()` and `GET control/providers/{providerId}` give it.
 */
export interface MemoryProviderConfigDescription extends MemoryProviderDescription {
  /**
   * The config as a JSON Schema (draft 2020-12), converted from the definition's
   * `configSchema`, with every secret field a `$secret` reference. A provider without a
   * `configSchema` gets an open object schema listing its secret fields.
   */
  configSchema: Record<string, unknown>;
  /** An example config, every secret as a reference, never a value. */
  configExample: Record<string, unknown>;
  /** Dotted config paths that must hold secret references. */
  secretFields: string[];
}
