// The worker entry Paperclip starts (`dist/worker.js`): the plugin with its UI data handlers,
// served over JSON-RPC on stdio. Importing it (a test, the manifest) starts nothing: runWorker
// only serves when this file is the process entry.
import { MemoryConfigurationError } from '@memplane/core';
import { runWorker } from '@paperclipai/plugin-sdk';
import { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin } from './worker/memplane-paperclip-plugin';
import { registerMemoryUiData } from './worker/memory-ui-data';

const base = createMemplanePaperclipPlugin();

/** The plugin as the worker runs it: the worker logic, plus the settings page and issue tab data. */
const plugin: MemplanePaperclipPlugin = {
  ...base,
  definition: {
    ...base.definition,
    async setup(ctx) {
      await base.definition.setup(ctx);
      registerMemoryUiData(ctx, {
        service: async () => {
          const service = base.service();
          if (service === undefined) throw new MemoryConfigurationError({ message: 'The memplane worker has no memory service (not started, or shut down).' });
          return service;
        },
      });
    },
  },
};

export default plugin;

runWorker(plugin, import.meta.url);
