import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryOperationEntry, MemoryService, MemoryServiceSettings } from '@memplane/service';
import { createTestHarness, type TestHarness } from '@paperclipai/plugin-sdk/testing';
import { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin } from '../memplane-paperclip-plugin';
import { workerTestManifest } from './paperclip-fixtures';

/** A started worker in Paperclip's test harness, with its data folder. */
export interface StartedWorker {
  harness: TestHarness;
  plugin: MemplanePaperclipPlugin;
  service: MemoryService;
  folder: string;
  /** The company's operations, oldest first, after the log is flushed. */
  operations(companyId: string, filter?: { runId?: string }): Promise<MemoryOperationEntry[]>;
  stop(): Promise<void>;
}

/**
 * Starts the plugin in the SDK's test harness on a fresh data folder. `prepare` runs before `setup`
 * (to stand in for host services the harness fakes, such as `ctx.secrets`).
 */
export async function startWorker(
  config: Record<string, unknown>,
  serviceSettings: Partial<MemoryServiceSettings> = {},
  prepare: (harness: TestHarness, folder: string) => void = () => undefined,
): Promise<StartedWorker> {
  const folder = await mkdtemp(join(tmpdir(), 'memplane-paperclip-worker-'));
  const harness = createTestHarness({ manifest: workerTestManifest, config });
  prepare(harness, folder);
  const plugin = createMemplanePaperclipPlugin({ dataDirectory: folder, serviceSettings });
  await plugin.definition.setup(harness.ctx);
  const service = plugin.service();
  if (service === undefined) throw new TypeError('the worker did not open its service');
  return {
    harness,
    plugin,
    service,
    folder,
    async operations(companyId, filter = {}) {
      await service.flush();
      const page = await service.explorer({ actor: { kind: 'system', component: 'test' }, companyId }).listOperations({ ...filter, limit: 200 });
      return [...page.items].reverse();
    },
    async stop() {
      await plugin.definition.onShutdown?.();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
