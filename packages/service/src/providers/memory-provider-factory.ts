import type { MemoryAdapter, MemoryAdapterCapabilities } from '@memplane/core';
import type { z } from 'zod';

/** What a factory learns about the binding it builds an adapter for. */
export interface MemoryProviderBuildContext {
  /** The binding's company. */
  companyId: string;
  /** The binding's id. */
  bindingId: string;
  /** The binding's key. */
  bindingKey: string;
  /**
   * A folder reserved for this binding (`<dataDirectory>/<providerId>/<company>/<binding>`), or
   * undefined when the service has no `dataDirectory`. Local providers keep their files there.
   */
  bindingDirectory: string | undefined;
  /**
   * The company's folder for this provider (`<dataDirectory>/<providerId>/<company>`), or
   * undefined without a `dataDirectory`. A local provider's files must stay inside it.
   */
  companyDirectory: string | undefined;
  /** The service's data directory, when it has one. */
  dataDirectory: string | undefined;
}

/** What a factory's `checkConfig` receives: the build context and the operator's endpoint allow-list. */
export interface MemoryProviderCheckContext extends MemoryProviderBuildContext {
  /**
   * Checks an endpoint against the operator's allow-list (and the private-network rule); throws
   * `MemoryBindingRefusedError` (rule `destination`) naming `field`.
   */
  checkDestination(field: string, url: unknown): void;
}

/**
 * Builds adapters for one provider id. Built-ins (`memory`, `markdown`), the hosted adapters
 * (`mem0`, `supermemory`, `agentcore`, loaded on first use) and plugins all plug in through
 * this shape, so adding a provider never changes the service.
 */
export interface MemoryProviderFactory {
  /** The provider id bindings name, such as `markdown`. Lowercase letters, digits and dashes. */
  providerId: string;
  /** One line for operators choosing a provider. */
  description: string;
  /**
   * Validates a binding config (with secrets still as references) when a binding is created or
   * changed. Failures become `MemoryValidationError` naming `config.<field>`. Default: any JSON object.
   */
  configSchema?: z.ZodType;
  /** Dotted config paths that hold secrets; a plain value there is refused. `apiKey`-like keys are refused anyway. */
  secretFields?: readonly string[];
  /**
   * An example config for operators choosing this provider (the inspector offers it in its
   * binding form), with every secret as a reference (`{ $secret: { env: 'NAME' } }`). Checked
   * at registration: it must pass `configSchema` and hold no plain secret. Default: the
   * `secretFields` as references to environment variables.
   */
  configExample?: Record<string, unknown>;
  /**
   * The capability manifest of every adapter this factory builds, when it is static. Without
   * it, the service builds an adapter when a binding is saved and reads its manifest.
   */
  capabilities?: MemoryAdapterCapabilities;
  /** Like `capabilities`, for factories that must load something first (a hosted adapter package). */
  loadCapabilities?(): Promise<MemoryAdapterCapabilities | undefined>;
  /**
   * Checks a binding config against the operator's rules, with secrets still as references:
   * where the provider will send requests, where a local provider keeps its files. Called when
   * a binding is created or changed and again before every adapter build, so a narrowed rule
   * fails closed. Throws a typed error naming the field.
   */
  checkConfig?(config: Record<string, unknown>, context: MemoryProviderCheckContext): void | Promise<void>;
  /** Builds the adapter from the config, secrets already resolved. May be async (to load an SDK). */
  create(config: Record<string, unknown>, context: MemoryProviderBuildContext): MemoryAdapter | Promise<MemoryAdapter>;
}

/** Where a registered provider came from. */
export type MemoryProviderOrigin = 'built-in' | 'hosted' | 'registered';

/** A provider as `service.providers.list()` describes it. */
export interface MemoryProviderDescription {
  /** The provider id. */
  providerId: string;
  /** One line about it. */
  description: string;
  /** Built into the service, a hosted adapter package loaded on first use, or registered by the host. */
  origin: MemoryProviderOrigin;
}

/**
 * What an operator needs to write a binding config for one provider, as
 * `service.providers.describe()` and `GET control/providers/{providerId}` give it.
 */
export interface MemoryProviderConfigDescription extends MemoryProviderDescription {
  /**
   * The config as a JSON Schema (draft 2020-12), converted from the factory's `configSchema`,
   * with every secret field a `$secret` reference. A provider without a `configSchema` (the
   * hosted adapters, whose packages check their own settings when a binding is built) gets an
   * open object schema listing its secret fields.
   */
  configSchema: Record<string, unknown>;
  /** An example config, every secret as a reference, never a value. */
  configExample: Record<string, unknown>;
  /** Dotted config paths that must hold secret references. */
  secretFields: string[];
}
