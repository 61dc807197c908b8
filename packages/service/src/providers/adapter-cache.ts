import { MemoryConfigurationError, stableStringify, type MemoryAdapter } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import { resolveSecrets } from '../bindings/secret-reference';
import { checkBindingConfig, type BindingRules } from './binding-rules';
import type { MemoryProviderRegistry } from './provider-registry';

/** Adapter instances per binding, rebuilt when the binding's provider or config changes. */
export interface AdapterCache {
  /** The adapter of the binding, built on first use and whenever its provider or config changed. */
  adapterFor(binding: MemoryBinding): Promise<MemoryAdapter>;
  /** The adapter of the binding when it is built and current, without waiting; else undefined. */
  builtAdapter(binding: MemoryBinding): MemoryAdapter | undefined;
  /** Builds an adapter without caching it (to read a manifest before a binding is saved). */
  build(binding: MemoryBinding): Promise<MemoryAdapter>;
  /** Caches an adapter built for a binding that has since been saved, so it is not built twice. */
  adopt(binding: MemoryBinding, adapter: MemoryAdapter): void;
  /** Forgets the adapters of one provider, or all; they are rebuilt on next use. */
  invalidate(providerId?: string): void;
  /** Closes every adapter built so far that has a `close()` (the markdown adapter's index). */
  closeAll(): Promise<void>;
}

interface CacheEntry {
  revision: number;
  fingerprint: string;
  providerId: string;
  adapter: Promise<MemoryAdapter>;
  /** The adapter once the build finished, so the hot path needs no await. */
  built?: MemoryAdapter;
}

const fingerprintOf = (binding: MemoryBinding) => `${binding.providerId}\u0000${stableStringify(binding.config)}`;

/** Creates the cache. */
export function createAdapterCache(options: {
  registry: MemoryProviderRegistry;
  rules: BindingRules;
}): AdapterCache {
  const entries = new Map<string, CacheEntry>();
  // Replaced adapters may still serve calls in flight, so they are only closed with the service.
  const everyAdapter = new Set<Promise<MemoryAdapter>>();

  async function build(binding: MemoryBinding): Promise<MemoryAdapter> {
    const definition = options.registry.get(binding.providerId);
    if (definition === undefined) {
      throw new MemoryConfigurationError({
        message: `Binding "${binding.key}" names provider "${binding.providerId}", which is not registered.`,
      });
    }
    // The operator's rules apply at every build, so a narrowed allow-list (or a folder swapped
    // for a link) fails closed.
    const { context: checkContext, overrides } = await checkBindingConfig(options.rules, binding, definition);
    const { checkDestination: _check, ...context } = checkContext;
    const resolved = await resolveSecrets(binding.config, options.rules.secrets, { companyId: binding.companyId, bindingKey: binding.key });
    options.rules.redactor.add(resolved.values);
    const adapter = await definition.create({ ...resolved.config, ...overrides }, context);
    if (typeof adapter !== 'object' || adapter === null || typeof adapter.query !== 'function') {
      throw new MemoryConfigurationError({ message: `Provider "${binding.providerId}" did not return a MemoryAdapter.` });
    }
    return adapter;
  }

  return {
    build,
    adopt(binding, adapter) {
      const adopted = Promise.resolve(adapter);
      everyAdapter.add(adopted);
      entries.set(binding.id, {
        revision: binding.revision,
        fingerprint: fingerprintOf(binding),
        providerId: binding.providerId,
        adapter: adopted,
        built: adapter,
      });
    },
    builtAdapter(binding) {
      const entry = entries.get(binding.id);
      return entry !== undefined && entry.revision === binding.revision ? entry.built : undefined;
    },
    adapterFor(binding) {
      const entry = entries.get(binding.id);
      if (entry !== undefined && entry.revision === binding.revision) return entry.adapter;
      const fingerprint = fingerprintOf(binding);
      if (entry !== undefined && entry.fingerprint === fingerprint) {
        // Only the key, the enabled flag or the hooks changed: the adapter stays.
        entry.revision = binding.revision;
        return entry.adapter;
      }
      const adapter = build(binding);
      everyAdapter.add(adapter);
      const created: CacheEntry = { revision: binding.revision, fingerprint, providerId: binding.providerId, adapter };
      entries.set(binding.id, created);
      adapter.then(
        (ready) => {
          created.built = ready;
        },
        () => undefined,
      );
      // A failed build is not cached: the next call tries again (the secret may be set by then).
      adapter.catch(() => {
        everyAdapter.delete(adapter);
        if (entries.get(binding.id)?.adapter === adapter) entries.delete(binding.id);
      });
      return adapter;
    },
    invalidate(providerId) {
      for (const [bindingId, entry] of entries) {
        if (providerId === undefined || entry.providerId === providerId) entries.delete(bindingId);
      }
    },
    async closeAll() {
      const adapters = await Promise.allSettled([...everyAdapter]);
      everyAdapter.clear();
      entries.clear();
      for (const settled of adapters) {
        if (settled.status !== 'fulfilled') continue;
        const closable = settled.value as MemoryAdapter & { close?: () => unknown };
        if (typeof closable.close === 'function') await closable.close();
      }
    },
  };
}
