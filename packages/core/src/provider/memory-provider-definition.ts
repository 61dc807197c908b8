import type { z } from 'zod';
import type { MemoryAdapter, MemoryAdapterCapabilities } from '../memory-adapter/v1/index';

/**
 * A secret in a binding config: the name of an environment variable, or a key the host's
 * secret resolver understands. Only the reference is stored; the value is read when the
 * adapter is built and never stored, logged or returned.
 */
export type SecretReference = { $secret: { env: string } } | { $secret: { key: string } };

/** What a provider learns about the binding it builds an adapter for. */
export interface MemoryProviderBuildContext {
  /** The binding's company. */
  companyId: string;
  /** The binding's id. */
  bindingId: string;
  /** The binding's key. */
  bindingKey: string;
  /**
   * A folder reserved for this binding (`<dataDirectory>/<providerId>/<company>/<binding>`), or
   * undefined when the host has no data directory. Local providers keep their files there.
   */
  bindingDirectory: string | undefined;
  /**
   * The company's folder for this provider (`<dataDirectory>/<providerId>/<company>`), or
   * undefined without a data directory. A local provider's files must stay inside it.
   */
  companyDirectory: string | undefined;
  /** The host's data directory, when it has one. */
  dataDirectory: string | undefined;
}

/** What `checkConfig` receives: the build context and the operator's endpoint allow-list. */
export interface MemoryProviderCheckContext extends MemoryProviderBuildContext {
  /**
   * Checks an endpoint against the operator's allow-list (and the private-network rule); throws
   * a typed refusal (rule `destination`) naming `field`.
   */
  checkDestination(field: string, url: unknown): void;
}

/**
 * Where a hosted provider sends its requests, so the host can hold every binding to the
 * operator's allow-list before a byte leaves.
 */
export interface MemoryProviderDestination {
  /** The top-level config field that names the endpoint: `baseURL`, `endpoint`. */
  field: string;
  /**
   * The provider's official endpoints, the default allow-list. An entry is a URL: scheme, host
   * (a `*` label stands for exactly one DNS label), optional port and optional path prefix.
   */
  officialEndpoints: readonly string[];
  /**
   * Where requests go when `field` is not set, or undefined when the config does not say (the
   * binding is then refused: every destination is checked).
   */
  defaultEndpoint(config: Record<string, unknown>): string | undefined;
  /**
   * Whether the default endpoint is written into the settings the adapter gets, so the
   * adapter's own environment fallbacks (`SUPERMEMORY_BASE_URL`) never apply.
   */
  passDefault: boolean;
}

/**
 * A provider as its adapter package describes it, from the package's `./provider` subpath
 * (`@memplane/mem0/provider`): everything a host needs to let company admins bind it. Hosts load
 * descriptions by package name, so adding a provider changes no host.
 */
export interface MemoryProviderDefinition {
  /** The provider id bindings name, such as `markdown`. Lowercase letters, digits and dashes. */
  providerId: string;
  /** The npm package that holds it, such as `@memplane/mem0`. */
  packageName?: string;
  /** One line for operators choosing a provider. */
  description: string;
  /**
   * The binding config: the adapter's own settings, with every secret field a
   * {@link SecretReference} and the host-owned fields (paths, endpoints) as the host allows.
   * Validated when a binding is created or changed, secrets still as references.
   */
  configSchema?: z.ZodType;
  /** Dotted config paths that hold secrets; a plain value there is refused. */
  secretFields?: readonly string[];
  /**
   * Top-level config fields that must be set, because the adapter would otherwise fall back to
   * the host's own environment (`MEM0_API_KEY`, the AWS default credential chain).
   */
  requiredFields?: readonly string[];
  /** Where a hosted provider sends requests; absent for a provider that makes no network calls of its own. */
  destination?: MemoryProviderDestination;
  /**
   * For a provider that keeps files: the config field holding its folder. The host resolves
   * it inside the company's folder (default: the binding's folder) and refuses any path that
   * leaves it, lexically or through a symbolic link, before `create` sees it.
   */
  localRootField?: string;
  /** An example config, every secret a reference, never a value. */
  configExample?: Record<string, unknown>;
  /** The capability manifest of every adapter it builds, when it is static. */
  capabilities?: MemoryAdapterCapabilities;
  /** Checks a config beyond its schema (secrets still references); throws a typed error naming the field. */
  checkConfig?(config: Record<string, unknown>, context: MemoryProviderCheckContext): void | Promise<void>;
  /** Builds the adapter from the config, secrets already resolved. May be async (to load an SDK). */
  create(config: Record<string, unknown>, context: MemoryProviderBuildContext): MemoryAdapter | Promise<MemoryAdapter>;
}
