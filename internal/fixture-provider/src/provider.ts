/**
 * The provider description of the notebook fixture, the `./provider` subpath a memplane host
 * loads by package name (`loadProviderPackage('@memplane-fixtures/notebook-provider')`).
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createNotebookAdapter, notebookAdapterSettingsSchema, notebookCapabilities, type NotebookAdapterSettings } from './notebook-adapter';

/**
 * The `notebook` provider: a binding's config is the adapter's settings, with `cursorSecret` a
 * secret reference and without `now` (a function). It keeps no files and calls no network, so
 * it declares neither a local root nor a destination.
 */
export const provider = defineMemoryProvider({
  providerId: 'notebook',
  packageName: '@memplane-fixtures/notebook-provider',
  description: 'A notebook kept in memory (@memplane-fixtures/notebook-provider, a test fixture).',
  configSchema: bindingConfigSchema(notebookAdapterSettingsSchema, { secretFields: ['cursorSecret'], omit: ['now'] }),
  secretFields: ['cursorSecret'],
  configExample: { notebook: 'team-notes' },
  capabilities: notebookCapabilities,
  // The config passed configSchema and its secret references were resolved by the host.
  create: (config) => createNotebookAdapter(config as NotebookAdapterSettings),
});

export default provider;
