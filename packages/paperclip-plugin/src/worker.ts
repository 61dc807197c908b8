// The worker entry Paperclip starts (`dist/worker.js`): the plugin with its UI data handlers,
// served over JSON-RPC on stdio. Importing it (a test, the manifest) starts nothing: runWorker
// only serves when this file is the process entry.
import { MemoryConfigurationError } from '@memplane/core';
import { runWorker } from '@paperclipai/plugin-sdk';
import { registerMcpBridge } from './mcp-bridge/mcp-bridge-handlers';
import { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin } from './worker/memplane-paperclip-plugin';
import { installMemorySkill, installMemorySkillEverywhere } from './worker/memory-skill-install';
import { registerMemoryUiData } from './worker/memory-ui-data';
import { inspectorBaseOf } from './worker/plugin-service-location';

const base = createMemplanePaperclipPlugin();

/** The plugin as the worker runs it: the worker logic, plus the memory skill, the settings page and issue tab data, and the MCP bridge. */
const plugin: MemplanePaperclipPlugin = {
  ...base,
  definition: {
    ...base.definition,
    async setup(ctx) {
      await base.definition.setup(ctx);
      // The memory skill goes to every company, and to each new one; installing never blocks or fails setup.
      ctx.events.on('company.created', async (event) => void (await installMemorySkill(ctx, event.companyId)));
      void installMemorySkillEverywhere(ctx);
      registerMemoryUiData(ctx, {
        service: async () => {
          const service = base.service();
          if (service === undefined) throw new MemoryConfigurationError({ message: 'The memplane worker has no memory service (not started, or shut down).' });
          return service;
        },
        inspectorBase: async (companyId) => inspectorBaseOf(await base.companyConfig(companyId)),
      });
      registerMcpBridge(ctx, { companyConfig: (companyId) => base.companyConfig(companyId) });
    },
  },
};

export default plugin;

runWorker(plugin, import.meta.url);
