/**
 * The provider description of `@memplane/mem0`, the `./provider` subpath: what a memplane host
 * (the memory service, `memplane serve`, `memplane-mcp`) loads by package name to let company
 * admins bind mem0.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createMem0Adapter } from './mem0-adapter';
import { mem0Capabilities } from './mem0-capabilities';
import { defaultMem0BaseURL, mem0AdapterSettingsSchema, type Mem0AdapterSettings } from './mem0-settings';

/**
 * The mem0 provider: a binding's config is the adapter's settings, with `apiKey` and
 * `cursorSecret` as secret references and without `fetch` (a function: the host's own fetch is
 * used). `apiKey` is required, so the adapter never reads the host's `MEM0_API_KEY`; requests go
 * to `baseURL`, by default `https://api.mem0.ai` (the SDK's default host, the one official
 * endpoint), which is written into the adapter's settings.
 */
export const provider = defineMemoryProvider({
  providerId: 'mem0',
  packageName: '@memplane/mem0',
  description: 'mem0 Platform (@memplane/mem0): hosted memory with mem0\'s own extraction.',
  configSchema: bindingConfigSchema(mem0AdapterSettingsSchema, { secretFields: ['apiKey', 'cursorSecret'], omit: ['fetch'] }),
  secretFields: ['apiKey', 'cursorSecret'],
  requiredFields: ['apiKey'],
  destination: {
    field: 'baseURL',
    // The SDK's default host (mem0ai's MemoryClient), the platform's one public API.
    officialEndpoints: [defaultMem0BaseURL],
    defaultEndpoint: () => defaultMem0BaseURL,
    passDefault: true,
  },
  configExample: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } },
  capabilities: mem0Capabilities,
  // The config passed configSchema and its secret references were resolved by the host.
  create: (config) => {
    const settings = config as Mem0AdapterSettings;
    return createMem0Adapter({ ...settings, baseURL: settings.baseURL ?? defaultMem0BaseURL });
  },
});

export default provider;
