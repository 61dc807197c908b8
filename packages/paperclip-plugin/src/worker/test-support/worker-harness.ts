import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryRecordHandle } from '@memplane/core';
import { createMemplaneTokenStore, dataFolderCursorSecret, type MemplaneTokenStore } from '@memplane/host';
import { createMemoryService, type MemoryOperationEntry, type MemoryService, type MemoryServiceSettings } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { startMemplaneServer, type RunningMemplaneServer, type StartMemplaneServerSettings } from '@memplane/server';
import { createTestHarness, type TestHarness } from '@paperclipai/plugin-sdk/testing';
import { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin } from '../memplane-paperclip-plugin';
import { pluginSqliteFileName } from '../paperclip-service-host';
import { loadPluginProviders } from '../plugin-providers';
import { hostCompanyConfig, type CompanyConfigs, type HostCompanyConfig } from './host-company-config';
import { systemContext } from '../paperclip-worker-host';
import { workerTestManifest } from './paperclip-fixtures';

/** Where the worker's service lives in a test: hosted in the worker, or a real `memplane serve` on a loopback port. */
export type WorkerMode = 'worker' | 'http';

/** Both modes, for `describe.each`. */
export const workerModes: WorkerMode[] = ['worker', 'http'];

/** The Paperclip secret (a company secret's uuid) the http-mode config names for the server token. */
export const serverTokenSecretId = '5e7a1c4e-2b1d-4c6f-9a8e-0d3b7f1e2a90';

/** The company the harness opens the service with: the first company's storage or service, without its bindings. */
const probeCompanyId = 'harness-probe';

/** A started worker in Paperclip's test harness, with its data folder. */
export interface StartedWorker {
  mode: WorkerMode;
  harness: TestHarness;
  plugin: MemplanePaperclipPlugin;
  /** The host's per-company config: every read the worker made, and a save that tells the worker. */
  config: HostCompanyConfig;
  /** The service that holds the memory: the worker's own (where the first company's config says), or the one under the server. */
  service: MemoryService;
  folder: string;
  /** The server and its tokens (http mode only). */
  server?: { http: RunningMemplaneServer; tokens: MemplaneTokenStore; tokenId: string };
  /** The company's operations, oldest first, after the log is flushed. */
  operations(companyId: string, filter?: { runId?: string }): Promise<MemoryOperationEntry[]>;
  stop(): Promise<void>;
}

/** Stands a real `memplane serve` up on 127.0.0.1 (a free port) over a service in `folder`, with one operator token. */
/** What a test may set on the server it stands up (rate limits and their clock). */
export type TestServerSettings = Pick<StartMemplaneServerSettings, 'rateLimit' | 'now'> & {
  /** Issue the plugin's token with `actAsAgents` and set `service.actAsAgents` in its config. */
  actAsAgents?: boolean;
};

async function startServer(folder: string, settings: Partial<MemoryServiceSettings>, serverSettings: TestServerSettings) {
  // The server offers what the worker would: the providers installed here, then the test's own.
  const { providers: extraProviders = [], ...rest } = settings;
  const store = createSqliteMemoryServiceStore({ filename: join(folder, pluginSqliteFileName) });
  const service = await createMemoryService({
    store,
    dataDirectory: folder,
    cursorSecret: await dataFolderCursorSecret(folder),
    providers: [...(await loadPluginProviders()), ...extraProviders],
    ...rest,
  });
  // The token table of the service's own store, as memplane serve keeps its tokens.
  const tokens = createMemplaneTokenStore(store);
  const { actAsAgents, ...startSettings } = serverSettings;
  const issued = await tokens.issue({ role: 'operator', operatorId: 'paperclip', ...(actAsAgents === true ? { actAsAgents: true as const } : {}) }, { label: 'paperclip plugin' });
  const http = await startMemplaneServer({ service, verifyToken: (token) => tokens.verify(token), port: 0, rateLimit: false, inspectorDirectory: false, ...startSettings });
  return { service, tokens, http, token: issued.token, tokenId: issued.record.id };
}

/**
 * Starts the plugin in the SDK's test harness on a fresh data folder, with each company's config
 * served the way Paperclip serves it (`hostCompanyConfig`: per company, and a read without a
 * company refused). In `http` mode a real `memplane serve` runs in this process on a loopback
 * port over that folder, with the service settings, and each company's config points the plugin
 * at it through `ctx.http` with an operator token read from a Paperclip `secret_ref`. `prepare`
 * runs before `setup` (to stand in for host services the harness fakes, such as `ctx.secrets`).
 */
export async function startWorker(
  configs: CompanyConfigs,
  serviceSettings: Partial<MemoryServiceSettings> = {},
  prepare: (harness: TestHarness, folder: string) => void = () => undefined,
  mode: WorkerMode = 'worker',
  serverSettings: TestServerSettings = {},
): Promise<StartedWorker> {
  const folder = await mkdtemp(join(tmpdir(), 'memplane-paperclip-worker-'));
  const server = mode === 'http' ? await startServer(folder, serviceSettings, serverSettings) : undefined;
  const relay = serverSettings.actAsAgents === true ? { actAsAgents: true } : {};
  const served = (config: Record<string, unknown>) =>
    server === undefined || config['service'] !== undefined ? config : { ...config, service: { mode: 'http', url: server.http.url, token: { type: 'secret_ref', secretId: serverTokenSecretId }, ...relay } };
  // A company of the harness's own, with the first company's storage or service and no bindings, opens that service up front.
  const [firstConfig = {}] = Object.values(configs);
  const probe = Object.fromEntries(Object.entries(firstConfig).filter(([field]) => field === 'storage' || field === 'service'));
  const companyConfigs = Object.fromEntries([...Object.entries(configs), [probeCompanyId, probe]].map(([companyId, config]) => [companyId, served(config as Record<string, unknown>)]));
  const harness = createTestHarness({ manifest: workerTestManifest });
  const plugin = createMemplanePaperclipPlugin({ dataDirectory: folder, serviceSettings });
  const config = hostCompanyConfig(harness, companyConfigs, (saved, change) => plugin.definition.onConfigChanged?.(served(saved), change));
  if (server !== undefined) {
    const resolve = harness.ctx.secrets.resolve.bind(harness.ctx.secrets);
    harness.ctx.secrets.resolve = async (reference, options) => {
      // The host resolves only with a company and for a reference bound in that company's saved config.
      if (options?.companyId === undefined) throw new Error('companyId is required for plugin secret resolution');
      return (reference as unknown as { secretId?: string }).secretId === serverTokenSecretId ? server.token : resolve(reference, options);
    };
  }
  prepare(harness, folder);
  await plugin.definition.setup(harness.ctx);
  if (config.reads.length > 0) throw new TypeError('setup read a config; Paperclip has none without a company');
  const opened = await plugin.companyService(probeCompanyId);
  const service = server?.service ?? (opened as { hosted?: MemoryService }).hosted;
  if (service === undefined) throw new TypeError('the worker service is neither hosted nor served');
  return {
    mode,
    harness,
    plugin,
    config,
    service,
    folder,
    ...(server === undefined ? {} : { server: { http: server.http, tokens: server.tokens, tokenId: server.tokenId } }),
    async operations(companyId, filter = {}) {
      await service.flush();
      const page = await service.explorer({ actor: { kind: 'system', component: 'test' }, companyId }).listOperations({ ...filter, limit: 200 });
      return [...page.items].reverse();
    },
    async stop() {
      await plugin.definition.onShutdown?.();
      if (server !== undefined) {
        // A test may have stopped the server already (memplane serve down).
        if (server.http.server.listening) await server.http.close();
        await server.service.close();
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Writes a company-shared memory (under no agent) through the worker's service, as the capture of
 * a board member's comment would; returns its record id. Only shared memory may reach an issue
 * document, which every member of the company reads.
 */
export async function rememberShared(started: StartedWorker, companyId: string, text: string): Promise<MemoryRecordHandle> {
  const service = started.plugin.service();
  if (service === undefined) throw new TypeError('the worker has no service');
  const written = await service.runtime(systemContext(companyId)).upsertRecords({ records: [{ text }] });
  const handle = written.records?.[0];
  if (handle === undefined) throw new TypeError('the shared memory was not written');
  return handle;
}

/** Forgets a company-shared memory through the worker's service, as a company admin would. */
export async function forgetShared(started: StartedWorker, companyId: string, handle: MemoryRecordHandle): Promise<void> {
  const service = started.plugin.service();
  if (service === undefined) throw new TypeError('the worker has no service');
  await service.runtime(systemContext(companyId)).forget({ handles: [handle] });
}
