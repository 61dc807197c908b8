/**
 * The provider description, the package's `./provider` subpath: what a memplane host (the
 * memory service, `memplane serve`, `memplane-mcp`) loads by package name to let company admins
 * bind this adapter. A binding can set every setting but `store`, an object the adapter makes
 * itself. An adapter that keeps files names its folder setting in `localRootField`, and the
 * host keeps that folder inside the company's own.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createExampleAdapter, exampleAdapterSettingsSchema, exampleCapabilities, type ExampleAdapterSettings } from './example-adapter';

export const provider = defineMemoryProvider({
  providerId: 'example',
  packageName: '@memplane/adapter-template',
  description: 'Example, a local store (@memplane/adapter-template).',
  configSchema: bindingConfigSchema(exampleAdapterSettingsSchema, { secretFields: ['cursorSecret'], omit: ['store'] }),
  secretFields: ['cursorSecret'],
  configExample: {},
  capabilities: exampleCapabilities,
  // The config passed configSchema, and the host resolved its secret references.
  create: (config) => createExampleAdapter(config as ExampleAdapterSettings),
});

export default provider;
