/**
 * The provider description of `@memplane/memory`, the `./provider` subpath: what a memplane host
 * (the memory service, `memplane serve`, `memplane-mcp`) registers to let company admins bind the
 * reference adapter.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createMemoryAdapter, memoryAdapterCapabilities } from './memory-adapter';
import { memoryAdapterSettingsSchema, type MemoryAdapterSettings } from './memory-settings';

/**
 * The `memory` provider: the in-process reference adapter. A binding's config is the adapter's
 * settings, with `cursorSecret` a secret reference and without `store`, `faults` and `now`
 * (objects and a function a JSON config cannot hold: each binding gets its own store, no faults
 * and the real clock). Its records live as long as the adapter, so they are lost when the
 * process restarts or the binding's config changes (the host builds a new adapter).
 */
export const provider = defineMemoryProvider({
  providerId: 'memory',
  packageName: '@memplane/memory',
  description: 'In-process reference adapter (@memplane/memory): every surface, nothing persisted.',
  configSchema: bindingConfigSchema(memoryAdapterSettingsSchema, { secretFields: ['cursorSecret'], omit: ['store', 'faults', 'now'] }),
  secretFields: ['cursorSecret'],
  configExample: { timeoutMs: 30_000 },
  capabilities: memoryAdapterCapabilities,
  // The config passed configSchema and its secret references were resolved by the host.
  create: (config) => createMemoryAdapter(config as MemoryAdapterSettings),
});

export default provider;
