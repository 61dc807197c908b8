/**
 * The provider description, the package's `./provider` subpath: what a memplane host (the
 * memory service, `memplane serve`, `memplane-mcp`) loads by package name to let company admins
 * bind Example. Add the package to the host config's `providers`, and a binding can set every
 * setting of `exampleAdapterSettingsSchema` but `fetch`.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createExampleAdapter } from './example-adapter';
import { exampleCapabilities } from './example-capabilities';
import { defaultExampleBaseURL, exampleAdapterSettingsSchema, type ExampleAdapterSettings } from './example-settings';

/** Settings that hold secrets: a binding gives them as references (`{ $secret: { env: NAME } }`), never values. */
const secretFields = ['apiKey', 'cursorSecret'];

export const provider = defineMemoryProvider({
  providerId: 'example',
  packageName: '@memplane/adapter-template',
  description: 'Example (@memplane/adapter-template).',
  // A function cannot travel in a JSON config: the adapter uses the host's fetch.
  configSchema: bindingConfigSchema(exampleAdapterSettingsSchema, { secretFields, omit: ['fetch'] }),
  secretFields,
  // Without it the adapter would read the host's EXAMPLE_API_KEY.
  requiredFields: ['apiKey'],
  destination: {
    field: 'baseURL',
    // The endpoints a binding may reach unless the host's operator allows others.
    officialEndpoints: [defaultExampleBaseURL],
    defaultEndpoint: () => defaultExampleBaseURL,
    passDefault: true,
  },
  configExample: { apiKey: { $secret: { env: 'EXAMPLE_API_KEY' } } },
  capabilities: exampleCapabilities,
  // The config passed configSchema, and the host resolved its secret references.
  create: (config) => {
    const settings = config as ExampleAdapterSettings;
    return createExampleAdapter({ ...settings, baseURL: settings.baseURL ?? defaultExampleBaseURL });
  },
});

export default provider;
