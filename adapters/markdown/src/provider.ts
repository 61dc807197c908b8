/**
 * The provider description of `@memplane/markdown`, the `./provider` subpath: what a memplane
 * host (the memory service, `memplane serve`, `memplane-mcp`) registers to let company admins
 * bind markdown memory.
 */
import { bindingConfigSchema, defineMemoryProvider } from '@memplane/core';
import { createMarkdownAdapter } from './markdown-adapter';
import { markdownAdapterSettingsSchema, type MarkdownAdapterSettings } from './markdown-settings';

/**
 * The `markdown` provider: markdown files as the source of truth with a derived SQLite index. A
 * binding's config is the adapter's settings, derived from {@link markdownAdapterSettingsSchema},
 * with `cursorSecret` a secret reference and without the objects and functions a JSON config
 * cannot hold (`extractor`, `embedder`, `now`, `onEvent`, `onProgress`: the built-in rule
 * extractor, lexical search, the real clock and no callbacks).
 *
 * `root` is the local root field: optional, and the host resolves it inside the company's
 * folder (by default the binding's own folder) and refuses any root that leaves it, so `create`
 * gets a confined absolute path. Without a root, `create` uses the binding's folder.
 */
export const provider = defineMemoryProvider({
  providerId: 'markdown',
  packageName: '@memplane/markdown',
  description: 'Local markdown files with a SQLite full-text index (@memplane/markdown).',
  configSchema: bindingConfigSchema(markdownAdapterSettingsSchema, {
    secretFields: ['cursorSecret'],
    omit: ['extractor', 'embedder', 'now', 'onEvent', 'onProgress'],
    // Host-owned: the host confines it, and defaults it to the binding's folder.
    replace: { root: markdownAdapterSettingsSchema.shape.root.optional() },
  }),
  secretFields: ['cursorSecret'],
  localRootField: 'root',
  // No cursorSecret: a reference works only once the operator lets the company read the variable.
  configExample: { fusion: 'rrf' },
  // The config passed configSchema, its secret references were resolved and its root confined by the host.
  create: (config, context) => {
    const { root, ...settings } = config as Partial<MarkdownAdapterSettings>;
    return createMarkdownAdapter({ ...settings, root: (root ?? context.bindingDirectory) as string });
  },
});

export default provider;
