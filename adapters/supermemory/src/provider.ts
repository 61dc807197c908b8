/**
 * The provider description of `@memplane/supermemory`, the `./provider` subpath: what a memplane
 * host (the memory service, `memplane serve`, `memplane-mcp`) loads by package name to let
 * company admins bind Supermemory.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createSupermemoryAdapter } from './supermemory-adapter';
import { supermemoryCapabilities } from './supermemory-capabilities';
import { defaultSupermemoryBaseURL, supermemoryAdapterSettingsSchema, type SupermemoryAdapterSettings } from './supermemory-settings';

/**
 * The Supermemory provider: a binding's config is the adapter's settings, with `apiKey` and
 * `cursorSecret` as secret references and without `client` and `fetch` (objects and functions
 * the host owns). `apiKey` is required, so the adapter never reads the host's
 * `SUPERMEMORY_API_KEY`; requests go to `baseURL`, by default `https://api.supermemory.ai` (the
 * SDK's default base URL, the one official endpoint), which is written into the adapter's
 * settings so the host's `SUPERMEMORY_BASE_URL` never applies.
 */
export const provider = defineMemoryProvider({
  providerId: 'supermemory',
  packageName: '@memplane/supermemory',
  description: 'Supermemory (@memplane/supermemory): hosted memory with Supermemory\'s own extraction.',
  configSchema: bindingConfigSchema(supermemoryAdapterSettingsSchema, { secretFields: ['apiKey', 'cursorSecret'], omit: ['client', 'fetch'] }),
  secretFields: ['apiKey', 'cursorSecret'],
  requiredFields: ['apiKey'],
  destination: {
    field: 'baseURL',
    // The SDK's default base URL (the `supermemory` package), Supermemory's one public API.
    officialEndpoints: [defaultSupermemoryBaseURL],
    defaultEndpoint: () => defaultSupermemoryBaseURL,
    passDefault: true,
  },
  configExample: { apiKey: { $secret: { env: 'SUPERMEMORY_API_KEY' } } },
  capabilities: supermemoryCapabilities,
  // The config passed configSchema and its secret references were resolved by the host.
  create: (config) => {
    const settings = config as SupermemoryAdapterSettings;
    return createSupermemoryAdapter({ ...settings, baseURL: settings.baseURL ?? defaultSupermemoryBaseURL });
  },
});

export default provider;
